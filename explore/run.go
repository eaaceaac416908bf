package explore

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/flow/runner"
	"github.com/mcpcli/mcpcli/internal/lazy"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/transport"
)

// Spec is what Explore explores, and how it reaches the server.
type Spec struct {
	// Dial connects with the explorer's answerer, observe (when not nil)
	// watching the wire.
	Dial func(ctx context.Context, a client.Answerer, observe transport.Observer) (*client.Session, error)
	// Tools are explored, or every tool the server lists (All).
	Tools []string
	All   bool
	// Base and Pairs are the calls' arguments (one tool), prepared as
	// call prepares them; nil both: made up from each tool's inputSchema.
	Base  map[string]any
	Pairs []request.Pair
	// Note is told the notes of preparing them (an unknown key).
	Note func(request.Note)
	// Max bounds the requests made of each tool (MaxBranches).
	Max int
}

// Explore connects, and explores sp's tools, observe watching.
func Explore(ctx context.Context, sp Spec, observe transport.Observer) ([]ToolTree, error) {
	plug := &Plug{}
	s, err := sp.Dial(ctx, plug, observe)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var args map[string]any
	if sp.Base != nil || sp.Pairs != nil {
		p := &request.Preparer{Session: s, Note: sp.Note}
		r, err := p.Call(ctx, sp.Tools[0], sp.Base, sp.Pairs)
		if err != nil {
			return nil, err
		}
		args = r.Args
	}
	trees, err := Tools(ctx, s, plug, sp.Tools, sp.All, args, Options{MaxBranches: sp.Max})
	return trees, s.Explain(err)
}

// Print writes trees on w: a table for each tool, or (asJSON) one JSON
// array; skipped is told each tool skipped, with why (the table leaves
// them out).
func Print(w io.Writer, trees []ToolTree, asJSON bool, skipped func(tool, why string)) error {
	if asJSON {
		return render.WriteJSON(w, jsonTrees(trees))
	}
	first := true
	for _, t := range trees {
		if t.Skipped != "" {
			skipped(t.Tool, t.Skipped)
			continue
		}
		if !first {
			fmt.Fprintln(w)
		}
		first = false
		if err := Table(w, t.Tool, t.Branches); err != nil {
			return err
		}
	}
	return nil
}

type jsonBranch struct {
	Path    string `json:"path"`
	Outcome string `json:"outcome"`
	Rounds  int    `json:"rounds"`
	IsError bool   `json:"isError,omitempty"`
	Error   string `json:"error,omitempty"`
	Cut     bool   `json:"cut,omitempty"`
}

type jsonTree struct {
	Tool     string         `json:"tool"`
	Args     map[string]any `json:"arguments,omitempty"`
	Skipped  string         `json:"skipped,omitempty"`
	Branches []jsonBranch   `json:"branches"`
}

func jsonTrees(trees []ToolTree) []jsonTree {
	out := []jsonTree{}
	for _, t := range trees {
		tr := jsonTree{Tool: t.Tool, Args: t.Args, Skipped: t.Skipped, Branches: []jsonBranch{}}
		for _, b := range t.Branches {
			br := jsonBranch{Path: b.PathString(), Outcome: b.Outcome(), Rounds: len(b.Path), Cut: b.Cut}
			if b.Run.Err != nil {
				br.Error = b.Run.Err.Error()
			}
			br.IsError = b.Run.Result != nil && b.Run.Result.IsError()
			tr.Branches = append(tr.Branches, br)
		}
		out = append(out, tr)
	}
	return out
}

// WriteFlows writes each branch of trees as a flow file in dir (named by
// FileName) that runs against server, and says how many it wrote. A file
// already there is written over only when the ledger l says mcpcli wrote
// it and nobody has changed it since (runner.SaveRuns).
func WriteFlows(dir string, server flow.Server, trees []ToolTree, l *safefile.Ledger) (int, error) {
	n := 0
	for _, t := range trees {
		for _, b := range t.Branches {
			if _, err := runner.SaveRuns(filepath.Join(dir, FileName(t.Tool, b)), server, []flow.Run{b.Run}, l); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

var notFileChar = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_.-]+`) }}

// FileName names a branch's flow file: create_repo.basics-accept.details-decline.flow.
func FileName(tool string, b Branch) string {
	parts := []string{tool}
	for _, s := range b.Path {
		var keys []string
		for _, k := range s.Keys {
			a := s.Choice[k]
			if a == "" {
				a = "accept"
			}
			keys = append(keys, k+"-"+a)
		}
		parts = append(parts, strings.Join(keys, "+"))
	}
	name := notFileChar.Get().ReplaceAllString(strings.Join(parts, "."), "_")
	if len(name) > 200 {
		name = name[:200]
	}
	return name + ".flow"
}
