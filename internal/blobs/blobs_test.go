package blobs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestFileName(t *testing.T) {
	for _, tc := range []struct{ uri, want string }{
		{"demo://resource/session/hello.gz", "hello.gz"},
		{"file:///home/ada/report.pdf", "report.pdf"},
		{"demo://resource/dynamic/blob/1", "1"},
		{"file:///etc/../../etc/passwd", "passwd"},
		{"x://a/b%2F..%2F..%2Fc", "c"},
		{"file:///home/ada/.bashrc", "bashrc"},
		{"data:text/plain,hi", "plain_hi"},
		{"x://host/with space\x1b[31m.png", "with_space__31m.png"},
		{"x://host/", ""},
		{"x://host/...", ""},
		{"", ""},
	} {
		if got := fileName(tc.uri); got != tc.want {
			t.Errorf("fileName(%q) = %q, want %q", tc.uri, got, tc.want)
		}
	}
}

func TestExtension(t *testing.T) {
	for mt, want := range map[string]string{
		"image/png": ".png", "image/jpeg": ".jpg", "audio/wav": ".wav", "application/gzip": ".gz",
		"text/plain; charset=utf-8": ".txt", "": ".bin", "application/x-made-up": ".bin",
	} {
		if got := Extension(mt); got != want {
			t.Errorf("Extension(%q) = %q, want %q", mt, got, want)
		}
	}
}

func TestCollectAndSave(t *testing.T) {
	png := []byte("\x89PNG fake")
	res := &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: "here"},
		&mcp.ImageContent{MIMEType: "image/png", Data: png},
		&mcp.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF")},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "demo://resource/session/hello.gz", MIMEType: "application/gzip", Blob: []byte{0x1f, 0x8b}}},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "demo://text", Text: "not binary"}},
		&mcp.ImageContent{MIMEType: "image/png", Data: png},
	}}
	items := FromTool(res)
	if len(items) != 4 {
		t.Fatalf("FromTool found %d items, want 4 (image, audio, blob, image)", len(items))
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// A file already there is kept.
	if err := os.WriteFile(filepath.Join(dir, "content-1.png"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	saved, err := Save(dir, items)
	if err != nil {
		t.Fatalf("Save = %v", err)
	}
	var names []string
	for _, s := range saved {
		names = append(names, filepath.Base(s.Path))
	}
	if diff := cmp.Diff([]string{"content-1-2.png", "content-2.wav", "hello.gz", "content-4.png"}, names); diff != "" {
		t.Errorf("saved names (-want +got):\n%s", diff)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "content-1.png")); string(b) != "mine" {
		t.Errorf("an existing file was overwritten: %q", b)
	}
	if b, _ := os.ReadFile(saved[0].Path); string(b) != string(png) {
		t.Errorf("saved image = %q, want the decoded bytes", b)
	}
	read := FromResource(&mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: "demo://resource/dynamic/blob/1", MIMEType: "text/plain", Blob: []byte("blob text")},
		{URI: "demo://resource/dynamic/text/1", Text: "text"},
	}})
	saved, err = Save(dir, read)
	if err != nil || len(saved) != 1 || filepath.Base(saved[0].Path) != "1.txt" {
		t.Errorf("Save(resource blob) = %v, %v; want 1.txt", saved, err)
	}
}

// A saved content is named from its resource URI's last segment, with
// the extension its mimeType gives (issue 22: test://static-binary, an
// image/png blob, was saved as content-1.png).
func TestName(t *testing.T) {
	for _, tc := range []struct {
		uri, mime string
		n         int
		want      string
	}{
		{"test://static-binary", "image/png", 1, "static-binary.png"},
		{"", "image/png", 2, "content-2.png"},
		{"demo://resource/session/hello.gz", "application/gzip", 1, "hello.gz"},
		{"file:///r/photo.jpeg", "image/jpeg", 1, "photo.jpeg"},
		{"file:///r/report.txt", "image/png", 1, "report.png"},
		{"file:///r/run.sh", "image/png", 1, "run.png"},
		{"file:///r/data", "", 1, "data.bin"},
		{"file:///r/archive.tar.gz", "", 1, "archive.tar.bin"},
		{"https://example.com", "application/pdf", 1, "example.com.pdf"},
		{"x://host/", "image/png", 3, "content-3.png"},
	} {
		if got := Name(Item{URI: tc.uri, MIME: tc.mime}, tc.n); got != tc.want {
			t.Errorf("Name(%q, %q, %d) = %q, want %q", tc.uri, tc.mime, tc.n, got, tc.want)
		}
	}
}
