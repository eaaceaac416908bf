package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// Exit codes.
const (
	exitOK        = 0
	exitError     = 1   // usage, transport or protocol error
	exitToolError = 2   // the tool result has isError
	exitAbandoned = 130 // the person abandoned the request
)

// usageError is a mistake in how mcpcli was called.
type usageError struct {
	cmd string
	msg string
}

func (e *usageError) Error() string { return e.msg }

func usageErrorf(cmd *cobra.Command, format string, args ...any) error {
	name := "mcpcli"
	if cmd != nil {
		name = cmd.CommandPath()
	}
	return &usageError{cmd: name, msg: fmt.Sprintf(format, args...)}
}

// toolError carries exit code 2: the call worked, the tool said it failed.
type toolError struct{}

func (toolError) Error() string { return "the tool reported an error" }

// resourceError is a resource a server could not read.
type resourceError struct {
	server, uri string
	rpc         *jsonrpc.Error
}

func (e *resourceError) Error() string {
	return fmt.Sprintf("server %q could not read %q (%d: %s); run 'mcpcli resources' to list what it has",
		e.server, e.uri, e.rpc.Code, e.rpc.Message)
}

// notFoundError is a tool or prompt the server does not have.
type notFoundError struct {
	server, what, name string
	maybe              []string // what it may have been meant
	list               string   // the command that lists them
}

func (e *notFoundError) Error() string {
	return fmt.Sprintf("server %q has no %s %q%s; run '%s' to list them", e.server, e.what, e.name, didYouMean(e.maybe), e.list)
}

// demoError is a tour with flows that did not complete.
type demoError struct {
	failed []string
	of     int
}

func (e *demoError) Error() string {
	return fmt.Sprintf("%d of %d demo flows did not complete: %s", len(e.failed), e.of, strings.Join(e.failed, ", "))
}

// report turns the outcome of a command into a message on stderr and an
// exit code. It is the only place that does.
func report(ctx context.Context, w *render.Console, err error) int {
	if err == nil {
		return exitOK
	}
	var te toolError
	if errors.As(err, &te) {
		return exitToolError
	}
	if errors.Is(err, client.ErrAbandoned) || ctx.Err() != nil && errors.Is(err, context.Canceled) {
		w.Printf("mcpcli: cancelled; the request was abandoned")
		var sig interrupted
		if errors.As(context.Cause(ctx), &sig) {
			return sig.exitCode()
		}
		return exitAbandoned
	}
	var ue *usageError
	if errors.As(err, &ue) {
		w.Printf("mcpcli: %s", render.Line(ue.msg))
		w.Printf("Run '%s --help' for usage.", ue.cmd)
		return exitError
	}
	w.Printf("mcpcli: %s", render.Line(explain(err)))
	if tail := stderrTail(err); len(tail) > 0 {
		w.Printf("  last %d line%s of the server's stderr:", len(tail), plural(len(tail)))
		for _, l := range tail {
			w.Printf("  | %s", render.Line(l))
		}
	}
	return exitError
}

// stderrTail is what a stdio server wrote to stderr last, when the error
// is about its death or its stdout.
func stderrTail(err error) []string {
	var ee *transport.ExitError
	var se *transport.StdoutError
	switch {
	case errors.As(err, &ee):
		return ee.Stderr
	case errors.As(err, &se):
		return se.Stderr
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// explain says what an error means in words, and what to do next: the
// flag to try, the command to run.
func explain(err error) string {
	var (
		ee  *transport.ExitError
		se  *transport.StdoutError
		st  *transport.StartError
		ae  *transport.AuthError
		hs  *transport.StatusError
		ve  *client.VersionError
		ce  *client.ConnectError
		re  *client.RoundsError
		to  *client.TimeoutError
		me  *client.ModeError
		sr  *client.StreamError
		ne  *net.OpError
		je  *jsonrpc.Error
		res *resourceError
	)
	switch {
	case errors.As(err, &res):
		return res.Error()
	case errors.As(err, &ee):
		return ee.Error()
	case errors.As(err, &se):
		return se.Error()
	case errors.As(err, &st):
		switch {
		case st.Program == "":
			return "no server command given: pass --stdio \"CMD ARGS\" or put the command after --"
		case st.NotFound && st.Dir != "":
			return st.Error() + "; check --cwd"
		case st.NotFound:
			return st.Error() + "; check the command and your PATH"
		}
		return st.Error()
	case errors.As(err, &ae):
		if ae.Status == http.StatusForbidden {
			return ae.Error() + "; the credentials sent with --header, if any, do not allow it"
		}
		return ae.Error() + `; mcpcli cannot sign in with OAuth yet: pass a token with --header "Authorization: Bearer TOKEN"`
	case errors.As(err, &hs):
		return hs.Error() + statusAdvice(hs)
	case errors.As(err, &ve):
		return ve.Error() + "; use a client or server release with a version in common"
	case errors.As(err, &to):
		if to.Connecting && to.After == DefaultConnectTimeout {
			return to.Error() + "; pass --timeout to wait longer"
		}
		return to.Error() + " (--timeout)"
	case errors.As(err, &re):
		if re.StateOnly {
			return re.Error()
		}
		return re.Error() + " (raise --max-rounds if that is expected)"
	case errors.As(err, &sr) && sr.NotResent:
		return sr.Error() + ": check, then run the command again if that is safe"
	case errors.As(err, &me):
		return me.Error() + fmt.Sprintf(" (--elicitation %s)", me.Declared)
	case errors.As(err, &ne):
		via := "the server"
		if errors.As(err, &ce) {
			via = ce.Via
		}
		return fmt.Sprintf("cannot reach %s: %v; check the URL and that the server is running", via, ne.Err)
	case errors.As(err, &je) && je.Code != transport.CodeRejectedByTransport:
		prefix := ""
		if errors.As(err, &ce) {
			prefix = "connecting to " + ce.Via + ": "
		}
		return prefix + describeRPC(je.Code, strings.TrimSpace(je.Message))
	}
	return err.Error()
}

// statusAdvice says what to do about an HTTP answer without JSON-RPC.
func statusAdvice(e *transport.StatusError) string {
	switch e.Kind {
	case transport.NotFound:
		return ": nothing there answers the request; check the URL's path (servers often serve MCP at /mcp)"
	case transport.ServerFailed:
		return "; the server's own logs may tell"
	case transport.Refused:
		return "; check the URL and any --header"
	case transport.NoBody:
		return ": a request needs a JSON or event-stream answer, so this is a bug in the server"
	case transport.NotMCP:
		return ": that URL is not an MCP endpoint; check it"
	}
	return ""
}

func describeRPC(code int64, msg string) string {
	switch code {
	case jsonrpc.CodeMethodNotFound:
		return fmt.Sprintf("the server does not support this request (-32601 method not found: %s)", msg)
	case jsonrpc.CodeInvalidParams:
		return fmt.Sprintf("the server refused the request's parameters (-32602 invalid params): %s", msg)
	case jsonrpc.CodeInternalError:
		return fmt.Sprintf("the server failed internally (-32603): %s", msg)
	case -32002:
		return fmt.Sprintf("the server has no such resource (-32002): %s; run 'mcpcli resources' to list them", msg)
	case -32020:
		return fmt.Sprintf("the server found the HTTP headers did not match the request body (-32020 header mismatch): %s", msg)
	case -32021:
		return fmt.Sprintf("the server needs a client capability mcpcli did not declare (-32021 missing required client capabilities): %s; check --elicitation", msg)
	case -32022:
		return fmt.Sprintf("the server supports none of mcpcli's protocol versions (-32022 unsupported protocol version): %s", msg)
	case -32042:
		return fmt.Sprintf("the server requires a URL elicitation first (-32042): %s", msg)
	}
	return fmt.Sprintf("the server answered with error %d: %s", code, msg)
}
