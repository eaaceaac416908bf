package main

import (
	"strings"
	"testing"

	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/internal/thirdparty"
	"github.com/mcpcli/mcpcli/urlmode/browsertest"
)

// stdioArgs is --stdio for an argv.
func stdioArgs(argv []string) []string {
	var q []string
	for _, a := range argv {
		q = append(q, shellwords.Quote(a))
	}
	return []string{"--stdio", strings.Join(q, " ")}
}

// server-everything's trigger-url-elicitation with errorPath=true answers
// -32042 with its URL asks: they are asked (here from an answers file),
// then the call goes again.
func TestEverythingURLElicitationRequired(t *testing.T) {
	ev := stdioArgs(thirdparty.Everything(t))
	accept := writeAnswers(t, `{"elicitation": {"action": "accept"}}`)
	code, out, errs := runCLI(t, "", browsertest.New(t), append([]string{"call", "trigger-url-elicitation", "url=https://example.com/signin", "errorPath=true", "--answers", accept, "-v"}, ev...)...)
	if code != 0 || !strings.Contains(out, "completed the URL elicitation") {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, errs)
	}
	for _, want := range []string{"← error -32042, URL elicitation required (round 1): asks elicitation", "URL:  https://modelcontextprotocol.io", "again, new id"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errs)
		}
	}
	decline := writeAnswers(t, `{"elicitation": {"action": "decline"}}`)
	code, _, errs = runCLI(t, "", browsertest.New(t), append([]string{"call", "trigger-url-elicitation", "url=https://example.com/signin", "errorPath=true", "--answers", decline}, ev...)...)
	if code != 1 || !strings.Contains(errs, "(-32042); you answered decline, so the request was not sent again") {
		t.Errorf("declined: exit %d, stderr:\n%s", code, errs)
	}
}

// server-filesystem and server-memory return structuredContent that only
// restates their text: each result is printed once.
func TestThirdPartyResultsArePrintedOnce(t *testing.T) {
	fs, root := thirdparty.Filesystem(t)
	code, out, errs := runCLI(t, "", browsertest.New(t), append([]string{"call", "read_text_file", "path=" + root + "/hello.txt"}, stdioArgs(fs)...)...)
	if code != 0 || strings.Count(out, "hello from mcpcli's tests") != 1 || strings.Contains(out, "structuredContent") {
		t.Errorf("server-filesystem read_text_file: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	mem, _ := thirdparty.Memory(t)
	code, out, errs = runCLI(t, "", browsertest.New(t), append([]string{"call", "create_entities", `entities=[{"name":"Ada","entityType":"person","observations":["wrote the first program"]}]`}, stdioArgs(mem)...)...)
	if code != 0 || strings.Count(out, "wrote the first program") != 1 || strings.Contains(out, "structuredContent") {
		t.Errorf("server-memory create_entities: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

// The TypeScript SDK's toolWithSampleServer prints a banner on stdout
// before it speaks: skipped, with one warning.
func TestThirdPartyBannerIsSkipped(t *testing.T) {
	argv := thirdparty.SDKExample(t, "toolWithSampleServer")
	code, out, errs := runCLI(t, "", browsertest.New(t), append([]string{"tools"}, stdioArgs(argv)...)...)
	if code != 0 || !strings.Contains(out, "summarize") {
		t.Fatalf("tools against toolWithSampleServer: exit %d, stdout %q, stderr:\n%s", code, out, errs)
	}
	if strings.Count(errs, "not a JSON-RPC message") != 1 || !strings.Contains(errs, `("MCP server is running...")`) {
		t.Errorf("stderr should warn once, quoting the banner:\n%s", errs)
	}
}
