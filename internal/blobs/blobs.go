// Package blobs finds the binary contents of a result (images, audio,
// resource blobs) and writes them to files: mcpcli's --save.
package blobs

import (
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Item is one binary content.
type Item struct {
	Kind string // image, audio or blob
	MIME string
	// URI is the resource the content came from, if any.
	URI  string
	Data []byte
}

// FromTool collects the binary contents of a tool result, in order.
func FromTool(res *mcp.CallToolResult) []Item {
	if res == nil {
		return nil
	}
	return fromContent(res.Content)
}

// FromPrompt collects the binary contents of a prompt's messages.
func FromPrompt(res *mcp.GetPromptResult) []Item {
	if res == nil {
		return nil
	}
	var cs []mcp.Content
	for _, m := range res.Messages {
		if m != nil {
			cs = append(cs, m.Content)
		}
	}
	return fromContent(cs)
}

// FromResource collects the blobs of a resource read.
func FromResource(res *mcp.ReadResourceResult) []Item {
	if res == nil {
		return nil
	}
	var out []Item
	for _, c := range res.Contents {
		if c != nil && len(c.Blob) > 0 {
			out = append(out, Item{Kind: "blob", MIME: c.MIMEType, URI: c.URI, Data: c.Blob})
		}
	}
	return out
}

func fromContent(cs []mcp.Content) []Item {
	var out []Item
	for _, c := range cs {
		switch c := c.(type) {
		case *mcp.ImageContent:
			out = append(out, Item{Kind: "image", MIME: c.MIMEType, Data: c.Data})
		case *mcp.AudioContent:
			out = append(out, Item{Kind: "audio", MIME: c.MIMEType, Data: c.Data})
		case *mcp.EmbeddedResource:
			if c.Resource != nil && len(c.Resource.Blob) > 0 {
				out = append(out, Item{Kind: "blob", MIME: c.Resource.MIMEType, URI: c.Resource.URI, Data: c.Resource.Blob})
			}
		}
	}
	return out
}

// Saved is an item written to a file.
type Saved struct {
	Item
	Path string
}

// Save writes each item to a new file in dir (made if missing), named by
// Name with N counting the items from 1. An existing file is never
// overwritten: -2, -3... is added.
func Save(dir string, items []Item) ([]Saved, error) {
	if len(items) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var out []Saved
	for i, it := range items {
		s, err := SaveItem(dir, it, i+1)
		if err != nil {
			return out, err
		}
		out = append(out, s)
	}
	return out, nil
}

// SaveItem writes one item, the nth binary content of its result
// (counting from 1), to a new file in dir, named by Name; an existing
// file is never overwritten. Dir must exist.
func SaveItem(dir string, it Item, n int) (Saved, error) {
	p, err := create(dir, Name(it, n), it.Data)
	if err != nil {
		return Saved{}, err
	}
	return Saved{Item: it, Path: p}, nil
}

// Name is the file name of the nth binary content of a result (counting
// from 1): the last segment of its resource's URI (test://static-binary
// is static-binary), else content-N, with the extension its MIME type
// gives (.bin when it gives none). The URI's own extension stays only
// when it is one of the type's (photo.jpeg for image/jpeg): a server
// names its bytes' type with mimeType, and a name cannot dress them up as
// something else (report.txt of image/png is report.png, run.sh of
// image/png is run.png).
func Name(it Item, n int) string {
	ext := Extension(it.MIME)
	stem, fromHost := fileName(it.URI), false
	if stem == "" {
		stem, fromHost = hostName(it.URI), true
	}
	if stem == "" {
		return fmt.Sprintf("content-%d%s", n, ext)
	}
	if fromHost {
		return stem + ext // example.com is no .com
	}
	own := path.Ext(stem)
	if own != "" && typeOf(own, it.MIME, ext) {
		return stem
	}
	if bare := strings.TrimSuffix(stem, own); strings.Trim(bare, "_.-") != "" {
		stem = bare
	}
	return stem + ext
}

// typeOf reports whether the extension own is one of the MIME type's.
func typeOf(own, mimeType, ext string) bool {
	if strings.EqualFold(own, ext) {
		return true
	}
	mt, _, _ := mime.ParseMediaType(mimeType)
	if mt == "" || mt == "application/octet-stream" {
		return false
	}
	exts, _ := mime.ExtensionsByType(mt)
	return slices.ContainsFunc(exts, func(e string) bool { return strings.EqualFold(e, own) })
}

// hostName is the name of a URI that has nothing but its authority, as
// test://static-binary (its one segment): the host, made safe as
// fileName makes a segment safe. Empty otherwise.
func hostName(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Host == "" || u.Path != "" || u.Opaque != "" {
		return ""
	}
	return fileName("x:///" + u.Hostname())
}

// create writes data to a new file named base in dir, or base-N.
func create(dir, base string, data []byte) (string, error) {
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	for n := 1; n < 1000; n++ {
		name := base
		if n > 1 {
			name = fmt.Sprintf("%s-%d%s", stem, n, ext)
		}
		p := filepath.Join(dir, name)
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return p, err
	}
	return "", fmt.Errorf("%s: too many files named like it already", filepath.Join(dir, base))
}

// maxName bounds a file name taken from a server's URI.
const maxName = 100

// fileName is a safe file name from the last segment of a resource URI:
// letters, digits, dot, dash and underscore only, no leading dot, and
// never a path. Empty when the URI has nothing usable.
func fileName(uri string) string {
	if uri == "" {
		return ""
	}
	seg := uri
	if u, err := url.Parse(uri); err == nil {
		seg = u.Path
		if seg == "" {
			seg = u.Opaque
		}
	}
	seg = seg[strings.LastIndexAny(seg, `/\:`)+1:]
	var b strings.Builder
	for _, r := range seg {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteRune('_')
		}
	}
	name := strings.TrimLeft(b.String(), "._")
	if len(name) > maxName {
		name = name[len(name)-maxName:]
	}
	if strings.Trim(name, "_.-") == "" {
		return ""
	}
	return name
}

// Extension is the file extension for a MIME type: the common ones fixed
// (so that the name does not depend on the machine's mime.types), others
// from the system, else .bin.
func Extension(mimeType string) string {
	mt, _, _ := mime.ParseMediaType(mimeType)
	switch mt {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "image/svg+xml":
		return ".svg"
	case "audio/wav", "audio/x-wav", "audio/wave":
		return ".wav"
	case "audio/mpeg":
		return ".mp3"
	case "audio/ogg":
		return ".ogg"
	case "application/pdf":
		return ".pdf"
	case "application/gzip":
		return ".gz"
	case "application/zip":
		return ".zip"
	case "application/json":
		return ".json"
	case "text/plain":
		return ".txt"
	case "text/html":
		return ".html"
	case "text/markdown":
		return ".md"
	case "text/csv":
		return ".csv"
	case "", "application/octet-stream":
		return ".bin"
	}
	if exts, _ := mime.ExtensionsByType(mt); len(exts) > 0 {
		return exts[0]
	}
	return ".bin"
}
