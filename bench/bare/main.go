// Command bare is the floor `make bench-cli` measures mcpcli against: a
// minimal go-sdk v1.8.0 client that does each path the plain way. It
// connects to a stdio command (after --) or a Streamable HTTP URL (-url),
// lists the tools (-list) or calls one (-call NAME -args JSON), answers an
// input_required round by calling again with inputResponses (the -accept
// content, or asked on the terminal with -form: plain lines or a minimal
// bubbletea view), and prints each
// result as indented JSON on stdout. -loop N makes N calls over one
// session, the in-process loop a scripted session is held to.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one message from a stdio server, as mcpcli's
// --max-message-size does by default.
const maxLine = 256 << 20

type options struct {
	url    string
	list   bool
	tool   string
	args   string
	accept string
	form   string
	loop   int
	server []string
}

func main() {
	var o options
	flag.StringVar(&o.url, "url", "", "talk Streamable HTTP to URL instead of starting the command after --")
	flag.BoolVar(&o.list, "list", false, "list the tools")
	flag.StringVar(&o.tool, "call", "", "call the tool `NAME`")
	flag.StringVar(&o.args, "args", "{}", "the call's arguments, a JSON object")
	flag.StringVar(&o.accept, "accept", `{"ok":true}`, "the content that accepts each form question (without -form)")
	flag.StringVar(&o.form, "form", "", "ask each form question on the terminal instead of sending -accept: `HOW` is print (plain lines) or minimal (one bubbletea view)")
	flag.IntVar(&o.loop, "loop", 1, "make the call `N` times over one session")
	showVersion := flag.Bool("version", false, "print the version and exit: the floor of a start-up")
	flag.Parse()
	if *showVersion {
		fmt.Println("bare version 1.0.0")
		return
	}
	o.server = flag.Args()
	if err := run(context.Background(), o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options, stdout io.Writer) error {
	if (o.url == "") == (len(o.server) == 0) {
		return errors.New("give a server: -url URL, or a command after --")
	}
	if o.list == (o.tool != "") {
		return errors.New("give one of -list and -call NAME")
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(o.args), &args); err != nil {
		return fmt.Errorf("-args is not a JSON object: %w", err)
	}
	var accept map[string]any
	if err := json.Unmarshal([]byte(o.accept), &accept); err != nil {
		return fmt.Errorf("-accept is not a JSON object: %w", err)
	}
	var t mcp.Transport
	if o.url != "" {
		t = &mcp.StreamableClientTransport{Endpoint: o.url}
	} else {
		// mcp.CommandTransport would do, but it caps a line at 16 MiB
		// with no way to raise it; mcpcli's default cap is 256 MiB.
		server := exec.Command(o.server[0], o.server[1:]...)
		server.Stderr = os.Stderr
		stdin, err := server.StdinPipe()
		if err != nil {
			return err
		}
		stdout, err := server.StdoutPipe()
		if err != nil {
			return err
		}
		if err := server.Start(); err != nil {
			return fmt.Errorf("start the server: %w", err)
		}
		// The server exits when its stdin closes: the session closes it,
		// and so does this on the way out of a failed connect.
		defer func() {
			stdin.Close()
			server.Wait()
		}()
		t = &mcp.IOTransport{Reader: stdout, Writer: stdin, MaxLineLength: maxLine}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1.0.0"}, &mcp.ClientOptions{
		Capabilities:   &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	})
	cs, err := c.Connect(ctx, t, nil)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer cs.Close()
	enc := func(v any) error {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		_, err = stdout.Write(append(b, '\n'))
		return err
	}
	if o.list {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			return fmt.Errorf("tools/list: %w", err)
		}
		return enc(res)
	}
	answer := func(ask *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		if o.form != "" {
			return askForm(o.form, ask, os.Stdin, os.Stderr)
		}
		return &mcp.ElicitResult{Action: "accept", Content: accept}, nil
	}
	for range o.loop {
		res, err := call(ctx, cs, o.tool, args, answer)
		if err != nil {
			return err
		}
		if err := enc(res); err != nil {
			return err
		}
	}
	return cs.Close()
}

// call calls tool, answering input_required rounds by calling again with
// inputResponses and the requestState, up to 10 rounds.
func call(ctx context.Context, cs *mcp.ClientSession, tool string, args map[string]any, answer func(*mcp.ElicitParams) (*mcp.ElicitResult, error)) (*mcp.CallToolResult, error) {
	p := &mcp.CallToolParams{Name: tool, Arguments: args}
	for range 10 {
		res, err := cs.CallTool(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("tools/call %s: %w", tool, err)
		}
		if !res.NeedsInput() {
			return res, nil
		}
		responses := mcp.InputResponseMap{}
		for key, ir := range res.InputRequests {
			ask, ok := ir.(*mcp.ElicitParams)
			if !ok {
				return nil, fmt.Errorf("tools/call %s: input request %q is a %T; bare answers only elicitations", tool, key, ir)
			}
			r, err := answer(ask)
			if err != nil {
				return nil, err
			}
			responses[key] = r
		}
		p = &mcp.CallToolParams{Name: tool, Arguments: args, InputResponses: responses, RequestState: res.RequestState}
	}
	return nil, fmt.Errorf("tools/call %s: still input_required after 10 rounds", tool)
}
