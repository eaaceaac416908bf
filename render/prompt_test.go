package render

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
)

// prompt answers r with a Prompter reading in (as piped input, echoed).
func prompt(t *testing.T, r client.Round, in string) (map[string]*mcp.ElicitResult, string, error) {
	t.Helper()
	var out bytes.Buffer
	p := NewPrompter(strings.NewReader(in), &out)
	p.Echo = true
	res, err := p.Answer(context.Background(), r)
	return res, out.String(), err
}

func TestPrompter(t *testing.T) {
	profile := `{"type":"object","properties":{
		"name":{"type":"string","title":"Name","minLength":2},
		"plan":{"type":"string","enum":["free","pro"],"default":"free"},
		"news":{"type":"boolean","title":"Newsletter"}},"required":["name"]}`
	tests := []struct {
		name        string
		schema      string
		in          string
		action      string
		content     map[string]any
		transcript  []string // must appear
		nottranscpt []string // must not
	}{
		{"defaults and unset", profile, "a\nAda\n\n\ny\n", client.Accept, map[string]any{"name": "Ada", "plan": "free"},
			[]string{"[default: free]", "[empty: leave unset]", "Newsletter  (not set: left out)", "→ accept sent to Test Server with 2 values"}, nil},
		{"a bad value is asked again, with the reason", profile, "a\nA\nAda\npro\nyes\ny\n", client.Accept, map[string]any{"name": "Ada", "plan": "pro", "news": true},
			[]string{"! Name must be at least 2 characters (now 1); try again"}, nil},
		{"re-asks are bounded", profile, "a\nA\nB\nC\nAda\n", client.Cancel, nil,
			[]string{"too many invalid answers: cancelling", "→ cancel sent to Test Server"}, nil},
		{"end of input cancels", profile, "a\nAda\n", client.Cancel, nil,
			[]string{"end of input: cancelling"}, nil},
		{"decline", profile, "d\n", client.Decline, nil, []string{"→ decline sent to Test Server"}, nil},
		{"cancel", profile, "c\n", client.Cancel, nil, nil, nil},
		{"edit from the review", profile, "a\nAda\n\n\ne\n1\nGrace\ny\n", client.Accept, map[string]any{"name": "Grace", "plan": "free"},
			[]string{"Edit which field?"}, nil},
		{"decline at the review", profile, "a\nAda\n\n\nd\n", client.Decline, nil, nil, nil},
		{"secrets are not echoed", `{"type":"object","properties":{"password":{"type":"string"}},"required":["password"]}`,
			"a\nhunter2\ny\n", client.Accept, map[string]any{"password": "hunter2"},
			[]string{"this looks like a secret", "•••••••"}, []string{"hunter2"}},
		{"an unrenderable form offers decline and cancel", `{"type":"object","properties":{"a":{"type":"object"}}}`,
			"d\n", client.Decline, nil, []string{"mcpcli cannot show this form", "a: is a nested object", "[d]ecline/[c]ancel"}, []string{"[a]ccept"}},
		{"a multi-select can be emptied with -", `{"type":"object","properties":{"tags":{"type":"array","items":{"enum":["a","b"]}}},"required":["tags"]}`,
			"a\n-\ny\n", client.Accept, map[string]any{"tags": []string{}}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, out, err := prompt(t, roundOf([3]string{"k", "Tell me.", tt.schema}), tt.in)
			if err != nil {
				t.Fatalf("Answer error: %v\n%s", err, out)
			}
			got := res["k"]
			if got.Action != tt.action {
				t.Fatalf("action %q, want %q\n%s", got.Action, tt.action, out)
			}
			if diff := cmp.Diff(tt.content, got.Content); diff != "" {
				t.Errorf("content (-want +got):\n%s\n%s", diff, out)
			}
			for _, w := range tt.transcript {
				if !strings.Contains(out, w) {
					t.Errorf("transcript lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.nottranscpt {
				if strings.Contains(out, w) {
					t.Errorf("transcript shows %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestPrompterNothingPiped(t *testing.T) {
	_, _, err := prompt(t, roundOf([3]string{"k", "Tell me.", confirmSchema}), "")
	if !errors.Is(err, ErrNoInput) {
		t.Errorf("Answer with no input = %v, want ErrNoInput", err)
	}
}

func TestPrompterCancelRest(t *testing.T) {
	r := roundOf([3]string{"a", "one", confirmSchema}, [3]string{"b", "two", confirmSchema}, [3]string{"c", "three", confirmSchema})
	res, out, err := prompt(t, r, "c\ny\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b", "c"} {
		if res[k].Action != client.Cancel {
			t.Errorf("%s: %s, want cancel\n%s", k, res[k].Action, out)
		}
	}
	res, out, err = prompt(t, r, "c\nn\nd\nc\nn\n")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for k, v := range res {
		got[k] = v.Action
	}
	if diff := cmp.Diff(map[string]string{"a": "cancel", "b": "decline", "c": "cancel"}, got); diff != "" {
		t.Errorf("actions (-want +got):\n%s\n%s", diff, out)
	}
}

// The line prompter's transcript is as inert as the form.
func TestPrompterHostile(t *testing.T) {
	r := hostileRound()
	r.Asks = r.Asks[:2]
	res, out, err := prompt(t, r, "a\n\n\n\n\n\ny\nd\n")
	if err != nil {
		t.Fatalf("Answer: %v\n%s", err, out)
	}
	if res["form"].Action != client.Accept || res["bad"].Action != client.Decline {
		t.Errorf("answers %+v %+v\n%s", res["form"], res["bad"], out)
	}
	checkInert(t, "transcript", out)
}

// A long list of fields wraps under itself, not at the terminal's edge.
func TestPrompterFieldsLineWrapsWithAnIndent(t *testing.T) {
	var props []string
	for i := 0; i < 12; i++ {
		props = append(props, fmt.Sprintf(`"a_rather_long_field_name_%d":{"type":"string"}`, i))
	}
	raw := `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
	var out bytes.Buffer
	p := NewPrompter(strings.NewReader("c\n"), &out)
	r := client.Round{Server: client.Server{Name: "s"}, Asks: []client.Ask{client.NewAsk("k", &mcp.ElicitParams{Message: "hi"}, json.RawMessage(raw))}}
	if _, err := p.Answer(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "   Fields: ") {
			if !strings.HasPrefix(lines[i+1], strings.Repeat(" ", 11)+"a_rather") {
				t.Errorf("the Fields line goes on without its indent:\n%s\n%s", l, lines[i+1])
			}
			return
		}
	}
	t.Fatalf("no Fields line:\n%s", out.String())
}
