package request

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/transport"
)

// fakeServer is a server as preparing sees it: lists it holds, and the
// requests it was sent. It verifies itself: a list read when none should
// be fails the test.
type fakeServer struct {
	t        *testing.T
	tools    *client.ToolList
	prompts  *client.PromptList
	modern   bool
	complete []string
	noList   bool // reading the tool list fails the test
	refuse   error
	sent     []string
}

func (f *fakeServer) Server() client.Server {
	v := client.LegacyVersion
	if f.modern {
		v = client.ModernVersion
	}
	return client.Server{Name: "fake", Protocol: v}
}
func (f *fakeServer) Tool(_ context.Context, name string) (*mcp.Tool, *client.ToolList, error) {
	if f.noList {
		f.t.Errorf("the tool list was read for %q", name)
	}
	return f.tools.Find(name), f.tools, nil
}
func (f *fakeServer) RefreshTools(context.Context) (*client.ToolList, error) { return f.tools, nil }
func (f *fakeServer) ListPrompts(context.Context) (*client.PromptList, error) {
	return f.prompts, nil
}
func (f *fakeServer) Complete(context.Context, *mcp.CompleteReference, string, string, map[string]string) (*client.Completion, error) {
	return &client.Completion{Values: f.complete}, nil
}
func (f *fakeServer) Capabilities() *mcp.ServerCapabilities {
	c := &mcp.ServerCapabilities{}
	if f.complete != nil {
		c.Completions = &mcp.CompletionCapabilities{}
	}
	return c
}
func (f *fakeServer) Declares(string) bool           { return false }
func (f *fakeServer) Transport() transport.Transport { return nil }
func (f *fakeServer) CallTool(_ context.Context, name string, args map[string]any) (*client.Result, error) {
	b, _ := json.Marshal(args)
	f.sent = append(f.sent, "call "+name+" "+string(b))
	return &client.Result{}, f.refuse
}
func (f *fakeServer) GetPrompt(_ context.Context, name string, args map[string]string) (*client.Result, error) {
	b, _ := json.Marshal(args)
	f.sent = append(f.sent, "prompt "+name+" "+string(b))
	return &client.Result{}, nil
}
func (f *fakeServer) ReadResource(_ context.Context, uri string) (*client.Result, error) {
	f.sent = append(f.sent, "read "+uri)
	return &client.Result{}, nil
}

func tools(defs ...string) *client.ToolList {
	l := &client.ToolList{Raw: map[string]json.RawMessage{}}
	for _, d := range defs {
		var t mcp.Tool
		json.Unmarshal([]byte(d), &t)
		l.Tools = append(l.Tools, &t)
		l.Raw[t.Name] = json.RawMessage(d)
	}
	return l
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return c
}

// A call given whole to a modern server goes without the tool list; one
// the server refuses is explained from the list, then.
func TestCallWithoutTheList(t *testing.T) {
	f := &fakeServer{t: t, modern: true, noList: true, tools: tools(`{"name":"book","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}`)}
	p := &Preparer{Session: f}
	r, err := p.Call(ctx(t), "book", map[string]any{"nights": 2}, nil)
	if err != nil || r.Target != "book" || r.Args["nights"] != 2 {
		t.Fatalf("Call(book, whole) = %+v, %v", r, err)
	}
	f.noList, f.refuse = false, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "city is required"}
	_, _, err = p.Send(ctx(t), r, 1)
	var me *MissingError
	if !errors.As(err, &me) || me.Refusal != "city is required" || !cmp.Equal(me.Missing, []string{"city"}) {
		t.Errorf("Send(refused) = %v, want a MissingError naming city with the server's words", err)
	}
}

// Names typed as mcpcli shows them are taken for the real one, with a
// note; an open schema's unknown key is sent, with a note when it looks
// like a typo; a tool left out says why.
func TestCallNamesAndNotes(t *testing.T) {
	f := &fakeServer{t: t, tools: tools(`{"name":"del\u200bete","inputSchema":{"type":"object","properties":{"project":{"type":"string"}}}}`)}
	f.tools.Dropped = []client.DroppedTool{{Name: "broken", Reason: "bad x-mcp-header"}}
	var notes []Note
	p := &Preparer{Session: f, Note: func(n Note) { notes = append(notes, n) }}
	r, err := p.Call(ctx(t), "del<U+200B>ete", nil, []Pair{{"projekt", "x"}})
	if err != nil || r.Target != "del\u200bete" || r.Args["projekt"] != "x" {
		t.Fatalf("Call(shown name) = %+v, %v", r, err)
	}
	if len(notes) != 2 {
		t.Fatalf("notes = %#v, want the name taken and the key sent anyway", notes)
	}
	if n, ok := notes[0].(*ShownNote); !ok || n.Real != "del\u200bete" {
		t.Errorf("notes[0] = %#v", notes[0])
	}
	if n, ok := notes[1].(*OpenKeyNote); !ok || n.Key != "projekt" || !cmp.Equal(n.Maybe, []string{"project"}) {
		t.Errorf("notes[1] = %#v", notes[1])
	}
	_, err = p.Call(ctx(t), "broken", nil, nil)
	var ue *UnknownError
	if !errors.As(err, &ue) || ue.Dropped != "bad x-mcp-header" {
		t.Errorf("Call(broken) = %v, want an UnknownError saying why it was left out", err)
	}
	_, err = p.Call(ctx(t), "nothing", nil, nil)
	if !errors.As(err, &ue) || !cmp.Equal(ue.Undeclared, []string{"sampling", "roots"}) {
		t.Errorf("Call(nothing) = %v, want the capabilities mcpcli did not declare", err)
	}
}

// The full-screen shell's way (Edit): a prompt's arguments on the form,
// starting from what was given; a template's variables on a form when
// the server completes nothing.
func TestEditOnTheForm(t *testing.T) {
	f := &fakeServer{t: t, prompts: &client.PromptList{Prompts: []*mcp.Prompt{{Name: "plan", Arguments: []*mcp.PromptArgument{{Name: "goal", Required: true}, {Name: "when"}}}}}}
	var asked []Arguments
	form := formFunc(func(a Arguments) (map[string]any, error) {
		asked = append(asked, a)
		if a.Method == ResourcesRead {
			return map[string]any{"a": "x", "b": "y"}, nil
		}
		return map[string]any{"goal": "ship", "when": 3}, nil
	})
	p := &Preparer{Session: f, Form: form, Edit: true}
	r, err := p.Prompt(ctx(t), "plan", map[string]string{"goal": "draft"})
	if err != nil || r.Args["when"] != "3" || r.Args["goal"] != "ship" {
		t.Fatalf("Prompt(Edit) = %+v, %v", r, err)
	}
	if len(asked) != 1 || asked[0].Given["goal"] != "draft" {
		t.Errorf("the form started from %+v, want goal=draft", asked)
	}
	tmpl, _ := ParseTemplate("desk://{a}/{b}", nil)
	r, err = p.Fill(ctx(t), tmpl, "notes")
	if err != nil || r.Target != "desk://x/y" || r.Template != "desk://{a}/{b}" || r.Vars["b"] != "y" {
		t.Errorf("Fill(Edit, no completions) = %+v, %v; want desk://x/y from the form", r, err)
	}
	if len(asked) != 2 || asked[1].Method != ResourcesRead || asked[1].Description != "notes" {
		t.Errorf("the template's form: %+v", asked)
	}
	// A cancelled form abandons the request.
	p.Form = formFunc(func(Arguments) (map[string]any, error) { return nil, ErrCancelled })
	if _, err := p.Prompt(ctx(t), "plan", nil); !errors.Is(err, client.ErrAbandoned) {
		t.Errorf("Prompt(cancelled) = %v, want ErrAbandoned", err)
	}
}

type formFunc func(Arguments) (map[string]any, error)

func (f formFunc) AskArguments(_ context.Context, a Arguments) (map[string]any, error) { return f(a) }

// Send sends each method with its arguments as they go on the wire.
func TestSend(t *testing.T) {
	f := &fakeServer{t: t}
	for _, r := range []*Request{
		{Method: ToolsCall, Target: "t"},
		{Method: PromptsGet, Target: "p", Args: map[string]any{"n": 2}},
		{Method: ResourcesRead, Target: "x://y"},
	} {
		if _, err := Send(ctx(t), f, r, 3); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{`call t {}`, `prompt p {"n":"2"}`, `read x://y`}; !cmp.Equal(f.sent, want) {
		t.Errorf("sent %q, want %q", f.sent, want)
	}
	if _, err := Send(ctx(t), f, &Request{Method: "tools/list"}, 0); err == nil {
		t.Errorf("Send(tools/list) = nil, want an error")
	}
	c := (&Request{Method: ToolsCall, Args: map[string]any{"a": 1}}).Clone()
	c.Args["a"] = 2
	if Verb(PromptsGet) != "prompt" || c.Verb() != "call" {
		t.Errorf("Verb: %q %q", Verb(PromptsGet), c.Verb())
	}
}

// The words the front ends read: what was typed wrong, in fields.
func TestWordsAndTemplates(t *testing.T) {
	if _, err := ParsePairs([]string{"a=1", "a=2"}, "argument"); !errors.As(err, new(*TwiceError)) {
		t.Errorf("ParsePairs(a twice) = %v", err)
	}
	if _, err := ParsePairs([]string{"=1"}, "--var"); !errors.As(err, new(*WordError)) {
		t.Errorf("ParsePairs(=1) = %v", err)
	}
	if _, err := ParseObject([]byte(`[1]`)); !errors.As(err, new(*ObjectError)) {
		t.Errorf("ParseObject([1]) = %v", err)
	}
	if _, err := ParseTemplate("x://{a", nil); !errors.As(err, new(*TemplateError)) {
		t.Errorf("ParseTemplate(x://{a) = %v", err)
	}
	if _, err := ParseTemplate("x://a", map[string]string{"a": "1"}); !errors.As(err, new(*NotTemplateError)) {
		t.Errorf("ParseTemplate(plain, vars) = %v", err)
	}
	for _, err := range []error{&WordError{What: "argument", Word: "x"}, &TwiceError{What: "argument", Key: "k"}, &UnknownError{What: "tool", Name: "n"},
		&ShownError{What: "tool", Real: []string{"a", "b"}}, &MissingError{What: "tool"}, &NoSuchArgumentError{What: "tool"}, &ArgumentError{Err: errors.New("x")},
		&NotTemplateError{URI: "u"}, &TemplateError{Err: errors.New("x"), Expand: true}, &AskError{Err: errors.New("x")}, &ObjectError{Err: errors.New("x")}} {
		if err.Error() == "" {
			t.Errorf("%T says nothing", err)
		}
	}
}
