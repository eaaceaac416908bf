// Package flow reads, writes, replays and checks flow files: what a server
// asked in each round of a call, prompt or read, the answer to give each
// ask, and what the request should end with.
//
// A flow file is plain text, one fact a line (FORMAT.md has the whole
// grammar and why it is not YAML):
//
//	# Declining the first step of the wizard creates nothing.
//	server command mcpcli demo-server
//
//	call create_repo {"owner": "octo"}
//	  round 1
//	    ask basics form
//	      message ~ /step 1 of 2/
//	      fields == ["name", "visibility"]
//	      required == ["name", "visibility"]
//	    answer basics decline
//	  result
//	    rounds == 1
//	    text contains "Declined"
//
// The package has no terminal and sends nothing itself: a runner connects
// a client.Session, plugs [Step.Replay] (or [Record]) in as its Answerer,
// makes the request, and hands the [Run] it gets from [Tape.Finish] to
// [Check], [File.Update] or [FromRecording].
package flow

import (
	"encoding/json"
	"regexp"
)

// File is a parsed flow file. Its bytes are kept as written: Format gives
// them back unchanged, and Update edits only the lines it must.
type File struct {
	Name   string // the name it was parsed under, for messages
	Server Server
	// Shared says the flow runs on a connection shared with the run's
	// other flows that say so, one after another, instead of a connection
	// of its own (the default, which lets flows run in parallel). Either
	// way a flow's steps run in order on the one connection it has.
	Shared bool
	Steps  []*Step

	lines []string // the source, one entry a line, without its \n
	noEOL bool     // the last line has no \n
	crlf  bool     // the lines end in \r\n: lines added get one too
}

// Server is where a flow runs; at most one field is set (none: the runner
// must be told on its command line).
type Server struct {
	Name    string   // a server named in the config files
	Command []string // a command line, run over stdio
	URL     string   // a Streamable HTTP (or SSE) endpoint
	Line    int      // the file's server line; 0 when it has none
}

// Step kinds: the request a step makes.
const (
	Call   = "call"   // tools/call
	Prompt = "prompt" // prompts/get
	Read   = "read"   // resources/read
)

// Request is what a step asks of the server.
type Request struct {
	Kind   string // Call, Prompt or Read
	Target string // the tool, the prompt or the resource URI
	// Args are the call's arguments or the prompt's, a JSON object as
	// written (nil for none, and for a read).
	Args json.RawMessage
}

// Method is the JSON-RPC method the request is sent as.
func (r Request) Method() string {
	switch r.Kind {
	case Call:
		return "tools/call"
	case Prompt:
		return "prompts/get"
	case Read:
		return "resources/read"
	}
	return ""
}

// String names the request for messages: `call create_repo`.
func (r Request) String() string { return r.Kind + " " + r.Target }

// Step is one request and what is expected of it.
type Step struct {
	Request
	Rounds []*Round
	// Result is what the request must end with; nil when the file expects
	// nothing of it.
	Result *Expect
	Line   int // 1-based line of the request

	reqEnd int // 0-based index of the request's last line (its arguments may take several)
}

// Round is one interim result: the asks expected in it and the answers to
// give.
type Round struct {
	Number  int
	Asks    []*AskSpec
	Answers []*Answer
	Line    int
}

// AskSpec is one ask expected in a round. An ask the file only answers is
// expected too, with nothing checked about it.
type AskSpec struct {
	Key     string
	Mode    string // "form" or "url"; "" when either will do
	Asserts []*Assert
	Line    int

	comment string // the header line's trailing comment, with the space before it
}

// Answer is what to answer an ask with.
type Answer struct {
	Key    string
	Action string // accept, decline or cancel
	// Content is an accepted form's content, a JSON object as written. A
	// string value "$env:NAME" is read from the environment at replay, so
	// that no secret is kept in the file ("$$env:..." is the literal text
	// "$env:...").
	Content json.RawMessage
	Line    int

	end int // 0-based index of its last line
}

// Expect is what a request must end with.
type Expect struct {
	Asserts []*Assert
	Line    int
}

// Op is how an Assert compares.
type Op string

// The comparisons.
const (
	Equal    Op = "=="       // exactly (lists: the same set)
	Match    Op = "~"        // by a regular expression (lists: every item)
	Contains Op = "contains" // a substring, a subset of a list, or a JSON subset
)

// Subjects of asserts. An ask's: message, url, fields, required, type and
// enum (type and enum name a field). A result's: rounds, isError, text,
// structuredContent and error.
const (
	SubjMessage    = "message"
	SubjURL        = "url"
	SubjFields     = "fields"
	SubjRequired   = "required"
	SubjType       = "type"
	SubjEnum       = "enum"
	SubjRounds     = "rounds"
	SubjIsError    = "isError"
	SubjText       = "text"
	SubjStructured = "structuredContent"
	SubjError      = "error"
)

// Assert is one expectation, one line of the file.
type Assert struct {
	Subject string
	Field   string // for type and enum
	Op      Op
	// Value is what is expected, decoded: a string, a []string, an int
	// (rounds), a bool (isError) or any JSON value (structuredContent).
	// For Match it is the pattern's text.
	Value   any
	Pattern *regexp.Regexp // for Match
	Line    int

	comment string // the line's trailing comment, with the space before it
}

// Format is the file as text: exactly the bytes it was parsed from, or,
// after Update or FromRecording, the bytes written.
func (f *File) Format() []byte {
	n := 0
	for _, l := range f.lines {
		n += len(l) + 1
	}
	b := make([]byte, 0, n)
	for i, l := range f.lines {
		b = append(b, l...)
		if i < len(f.lines)-1 || !f.noEOL {
			b = append(b, '\n')
		}
	}
	return b
}
