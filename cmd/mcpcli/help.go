package main

import "github.com/spf13/cobra"

func helpTopics() []*cobra.Command {
	return []*cobra.Command{
		{
			Use:   "answers",
			Short: "The answers file format (--answers)",
			Long: `--answers FILE (or - for stdin) answers elicitations without asking anyone.
The file is a JSON object keyed by the server's input request keys:

  {
    "confirm_delete": {"action": "accept", "content": {"confirm": true}},
    "profile":        {"action": "accept", "content": {"name": "Ada", "email": "ada@example.com", "languages": ["en"]}},
    "details":        [{"action": "accept", "content": {"license": "MIT"}}, {"action": "cancel"}],
    "connect":        {"action": "decline"},
    "*":              {"action": "cancel"}
  }

For each ask mcpcli looks up the exact key first, then "*". A single answer
is used every time the key is asked; a list is used one entry per round, and
running out is an error naming the key and the round. Elicitations from
older servers (sent as elicitation/create requests) have no key: they match
"elicitation", then "*".

action is accept, decline or cancel. content goes only with accept, and only
for form mode; it must fit the requested schema (the same checks as the
form), or mcpcli stops before sending it. A field the content leaves out
that has a default in the schema is sent with that default (as a form
does, and as the spec's defaults rule wants), so what is sent never depends
on the protocol version. For a URL ask, accept means the script consents:
the URL is printed on stderr. The URL asks of a -32042 error (2025-11-25
servers) are answered under "elicitation" too.

--save-answers FILE writes the answers you give by hand in this format, to
send them again later with --answers FILE; when a retry carrying your
answers fails, mcpcli keeps them in a file of this format and says how to
send them again.`,
		},
		{
			Use:   "trace",
			Short: "The trace format (--trace)",
			Long: `--trace FILE (or - for stderr) writes one JSON object per line for every
JSON-RPC message, in both directions, exactly as it crossed the wire:

  {"time":"2026-11-30T10:00:00.123Z","dir":"send","msg":{"jsonrpc":"2.0","id":3,"method":"tools/call",...}}
  {"time":"2026-11-30T10:00:00.130Z","dir":"recv","msg":{"jsonrpc":"2.0","id":3,"result":{"resultType":"input_required",...}}}

Over HTTP it also writes the headers of each request and response, with the
values of Authorization, Proxy-Authorization, Cookie and Set-Cookie replaced
by "[redacted]":

  {"time":"…","dir":"send","http":{"method":"POST","url":"http://…/mcp","headers":{…}}}
  {"time":"…","dir":"recv","http":{"status":200,"headers":{…}}}

Use it to check a server's multi round-trip behaviour: every retry has a new
id, the same arguments, inputResponses keyed as asked, and the requestState
the server sent, unchanged.`,
		},
		{
			Use:   "accessible",
			Short: "Line-by-line answering (--accessible, and piped stdin)",
			Long: `With --accessible, or when stdin is not a terminal and there is no --answers
file, mcpcli asks each question as a plain line on stderr and reads one line
of answer from stdin. For each form it reads:

  1. a, d or c: accept (and fill in), decline, or cancel;
  2. one line per field, in the server's order: empty input takes the
     default, or leaves an optional field unset; choices take a number, a
     value or a title; multi-selects take a comma-separated list (- for none);
     booleans take y or n;
  3. at the review: y sends, e edits a field (then its number or name),
     d declines, c cancels.

Invalid input is explained and asked again, up to 3 times. End of input
cancels the ask. So "printf 'a\nAda\n\ny\n' | mcpcli call ..." accepts
with the first field "Ada" and the second field's default.

mcpcli session --accessible is a whole session of lines on one connection:
one command a line (tools, call TOOL K=V ..., prompt, read, history, rerun N,
level, save, quit), each ask answered on the lines that follow it, results on
stdout. 'mcpcli session --help' lists its commands.`,
		},
	}
}
