package tui

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/internal/textsafe"
	"github.com/mcpcli/mcpcli/render"
)

// itemKind is what Enter or s does on a block of a result.
type itemKind int

const (
	itemNone       itemKind = iota
	itemLink                // a resource link: enter reads it
	itemMedia               // an image or audio: s saves it
	itemBlob                // a binary resource: s saves it
	itemStructured          // structuredContent: enter folds and unfolds
)

// block is one content block of a result, rendered as the one-shot output
// renders it.
type block struct {
	lines []string // sanitized
	kind  itemKind
	uri   string // link
	data  []byte // media, blob
	mime  string
	name  string
	open  bool     // structured: unfolded
	full  []string // structured: the pretty JSON
	isErr bool
}

// resultView is a result on screen: its blocks laid out into rows at one
// width, a scroll position, and the block that has the focus.
type resultView struct {
	blocks []block
	items  []int // blocks that act on keys
	focus  int   // index into items, -1 for none
	width  int
	rows   []row
	top    int
	raw    json.RawMessage
	size   int // bytes of text, to decide whether to lay out in the background
}

type row struct {
	text  string
	block int
}

// newResultView renders a final result into blocks. It may run off the
// event loop: a 10 MB result is sanitized and split here, not in a frame.
func newResultView(res *client.Result) *resultView {
	v := &resultView{raw: res.Raw, focus: -1, width: -1}
	add := func(b block) {
		v.blocks = append(v.blocks, b)
		for _, l := range b.lines {
			v.size += len(l)
		}
	}
	switch {
	case res.Tool != nil:
		t := res.Tool
		if t.IsError {
			add(block{lines: []string{"✗ The tool reported an error (isError):"}, isErr: true})
		}
		for _, c := range t.Content {
			add(contentBlock(c))
		}
		if t.StructuredContent != nil && !render.Restates(t) {
			add(structuredBlock(res.Raw, t.StructuredContent))
		}
		if len(t.Content) == 0 && t.StructuredContent == nil {
			add(block{lines: []string{"(the tool returned no content)"}})
		}
	case res.Prompt != nil:
		var buf bytes.Buffer
		render.PromptResult(&buf, res.Prompt)
		add(block{lines: splitLines(buf.String())})
	case res.Resource != nil:
		for i, c := range res.Resource.Contents {
			if c == nil {
				continue
			}
			var buf bytes.Buffer
			if len(res.Resource.Contents) > 1 || i > 0 {
				buf.WriteString("── " + render.Line(c.URI) + " ──\n")
			}
			one := &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}
			render.ResourceResult(&buf, one)
			b := block{lines: splitLines(buf.String())}
			if len(c.Blob) > 0 {
				b.kind, b.data, b.mime, b.name = itemBlob, c.Blob, c.MIMEType, c.URI
			}
			add(b)
		}
		if len(res.Resource.Contents) == 0 {
			add(block{lines: []string{"(the resource has no contents)"}})
		}
	}
	for i, b := range v.blocks {
		if b.kind != itemNone {
			v.items = append(v.items, i)
		}
	}
	if len(v.items) > 0 {
		v.focus = 0
	}
	return v
}

func contentBlock(c mcp.Content) block {
	var buf bytes.Buffer
	render.Contents(&buf, []mcp.Content{c})
	b := block{lines: splitLines(buf.String())}
	switch c := c.(type) {
	case *mcp.ResourceLink:
		b.kind, b.uri = itemLink, c.URI
	case *mcp.ImageContent:
		b.kind, b.data, b.mime, b.name = itemMedia, c.Data, c.MIMEType, "image"
	case *mcp.AudioContent:
		b.kind, b.data, b.mime, b.name = itemMedia, c.Data, c.MIMEType, "audio"
	case *mcp.EmbeddedResource:
		if c.Resource != nil && len(c.Resource.Blob) > 0 {
			b.kind, b.data, b.mime, b.name = itemBlob, c.Resource.Blob, c.Resource.MIMEType, c.Resource.URI
		}
	}
	return b
}

// structuredBlock is structuredContent, pretty, in the server's own key
// order when its bytes were seen; folded at first.
func structuredBlock(raw json.RawMessage, v any) block {
	var pretty []byte
	if sc := jsonpeek.Get(raw, "structuredContent"); sc != nil {
		var b bytes.Buffer
		if json.Indent(&b, sc, "", "  ") == nil {
			pretty = b.Bytes()
		}
	}
	if pretty == nil {
		pretty, _ = json.MarshalIndent(v, "", "  ")
	}
	full := splitLines(render.Sanitize(string(textsafe.EscapeJSON(pretty))))
	return block{kind: itemStructured, full: full, lines: []string{foldedLine(full)}}
}

func foldedLine(full []string) string {
	return "structuredContent ▸ " + strconv.Itoa(len(full)) + " lines, folded"
}

func splitLines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return []string{""}
	}
	return strings.Split(s, "\n")
}

// layout lays the blocks out at width w. For a big result it runs off the
// event loop (layoutCmd).
func (v *resultView) layout(w int) []row {
	var rows []row
	for i := range v.blocks {
		b := &v.blocks[i]
		lines := b.lines
		if b.kind == itemStructured && b.open {
			lines = append([]string{"structuredContent ▾"}, b.full...)
		}
		for _, l := range lines {
			rows = appendWrapped(rows, l, w, i)
		}
	}
	return rows
}

// appendWrapped adds line l as rows of at most w cells.
func appendWrapped(rows []row, l string, w, blk int) []row {
	if len(l) <= w {
		return append(rows, row{l, blk})
	}
	if isASCII(l) {
		return wrapASCII(rows, l, w, blk)
	}
	if ansi.StringWidth(l) <= w {
		return append(rows, row{l, blk})
	}
	for _, part := range strings.Split(ansi.Wrap(l, w, ""), "\n") {
		rows = append(rows, row{part, blk})
	}
	return rows
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// wrapASCII wraps a line of plain ASCII (one cell a byte) at spaces, and
// cuts words longer than a row: what ansi.Wrap does, without looking for
// grapheme clusters there cannot be.
func wrapASCII(rows []row, l string, w, blk int) []row {
	for len(l) > w {
		cut := strings.LastIndexByte(l[:w+1], ' ')
		if cut <= 0 {
			rows = append(rows, row{l[:w], blk})
			l = l[w:]
			continue
		}
		rows = append(rows, row{strings.TrimRight(l[:cut], " "), blk})
		l = strings.TrimLeft(l[cut+1:], " ")
	}
	if l != "" {
		rows = append(rows, row{l, blk})
	}
	return rows
}

func (v *resultView) setRows(rows []row) {
	v.rows = rows
	v.top = max(0, min(v.top, len(rows)-1))
}

// bigResult is the size past which a result is laid out in the background.
const bigResult = 256 << 10

type laidOutMsg struct {
	id, width int
	rows      []row
}

// layoutCmd lays a call's result out for the current width.
func (m *Model) layoutCmd(c *call) tea.Cmd {
	v := c.view
	if v == nil {
		return m.restore(c) // let go while it was not on screen
	}
	w := m.resultWidth(c)
	if v.width == w && v.rows != nil {
		return nil
	}
	v.width = w
	if v.size < bigResult {
		v.setRows(v.layout(w))
		return nil
	}
	id := c.id
	return func() tea.Msg { return laidOutMsg{id: id, width: w, rows: v.layout(w)} }
}

// focusRow is the first row of the focused block.
func (v *resultView) focusRow() int {
	if v.focus < 0 {
		return -1
	}
	blk := v.items[v.focus]
	for i, r := range v.rows {
		if r.block == blk {
			return i
		}
	}
	return -1
}

// binaryIndex is the focused block's place among the result's images,
// audio and blobs, counting from 1: the N of --save's content-N.
func (v *resultView) binaryIndex() int {
	n := 0
	for i := 0; i <= v.focus && i < len(v.items); i++ {
		if k := v.blocks[v.items[i]].kind; k == itemMedia || k == itemBlob {
			n++
		}
	}
	return n
}

func (v *resultView) focused() *block {
	if v.focus < 0 || v.focus >= len(v.items) {
		return nil
	}
	return &v.blocks[v.items[v.focus]]
}
