package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The ways bare asks a form question on the terminal (-form), each a floor
// mcpcli's first form is measured against.
const (
	// formPrint prints the question and its choices as plain lines and
	// reads the answer as a line: the floor of a client that received
	// input_required and shows it, drawing nothing.
	formPrint = "print"
	// formMinimal draws the question and its choices as one bubbletea
	// view and takes the answer as a key: the floor of a client that
	// draws a form at all.
	formMinimal = "minimal"
)

// property is what bare reads of a requestedSchema property.
type property struct {
	Type  string `json:"type"`
	Title string `json:"title"`
}

func properties(ask *mcp.ElicitParams) (map[string]property, []string, error) {
	var schema struct {
		Properties map[string]property `json:"properties"`
	}
	raw, err := json.Marshal(ask.RequestedSchema)
	if err != nil {
		return nil, nil, err
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, nil, fmt.Errorf("requestedSchema: %w", err)
	}
	keys := make([]string, 0, len(schema.Properties))
	for k := range schema.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return schema.Properties, keys, nil
}

// askForm asks one form-mode elicitation on the terminal, the way how
// says, on stdin and stderr.
func askForm(how string, ask *mcp.ElicitParams, in io.Reader, out io.Writer) (*mcp.ElicitResult, error) {
	props, keys, err := properties(ask)
	if err != nil {
		return nil, err
	}
	switch how {
	case formPrint:
		return askPrinted(ask, props, keys, in, out)
	case formMinimal:
		return askMinimal(ask, props, keys, in, out)
	}
	return nil, fmt.Errorf("-form %q: use %s or %s", how, formPrint, formMinimal)
}

// askPrinted prints the question, then each property and its choices, and
// reads one line per property: y or n for a boolean, the text otherwise.
func askPrinted(ask *mcp.ElicitParams, props map[string]property, keys []string, in io.Reader, out io.Writer) (*mcp.ElicitResult, error) {
	content := map[string]any{}
	r := bufio.NewReader(in)
	fmt.Fprintln(out, ask.Message)
	for _, k := range keys {
		p := props[k]
		if p.Type == "boolean" {
			fmt.Fprintf(out, "%s\n> Yes\n  No\n", title(k, p))
		} else {
			fmt.Fprintf(out, "%s: ", title(k, p))
		}
		line, err := r.ReadString('\n')
		if err != nil && line == "" {
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}
		line = strings.TrimRight(line, "\r\n")
		if p.Type == "boolean" {
			content[k] = line != "n"
		} else {
			content[k] = line
		}
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}

// minimalForm is the least a form can be: the question, and the choices of
// its first boolean property, y or n (or enter for the one marked) to
// answer; any other property is sent empty.
type minimalForm struct {
	question, field string
	yes             bool
	done, cancelled bool
}

func (m *minimalForm) Init() tea.Cmd { return nil }

func (m *minimalForm) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	switch k.String() {
	case "up", "down", "tab":
		m.yes = !m.yes
	case "y":
		m.yes, m.done = true, true
	case "n":
		m.yes, m.done = false, true
	case "enter":
		m.done = true
	case "esc", "ctrl+c":
		m.cancelled = true
	default:
		return m, nil
	}
	if m.done || m.cancelled {
		return m, tea.Quit
	}
	return m, nil
}

func (m *minimalForm) View() tea.View {
	yes, no := "> Yes", "  No"
	if !m.yes {
		yes, no = "  Yes", "> No"
	}
	return tea.NewView(m.question + "\n" + m.field + "\n" + yes + "\n" + no + "\n")
}

func askMinimal(ask *mcp.ElicitParams, props map[string]property, keys []string, in io.Reader, out io.Writer) (*mcp.ElicitResult, error) {
	m := &minimalForm{question: ask.Message, yes: true}
	var field string
	for _, k := range keys {
		if props[k].Type == "boolean" && field == "" {
			field = k
			m.field = title(k, props[k])
		}
	}
	if _, err := tea.NewProgram(m, tea.WithInput(in), tea.WithOutput(out)).Run(); err != nil || m.cancelled {
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	content := map[string]any{}
	for _, k := range keys {
		if k == field {
			content[k] = m.yes
		} else if props[k].Type != "boolean" {
			content[k] = ""
		}
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}

func title(k string, p property) string {
	if p.Title != "" {
		return p.Title
	}
	return k
}
