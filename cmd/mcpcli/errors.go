package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/spf13/cobra"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/transport"
)

// codeRejectedByTransport is the go-sdk's code for a request that never
// reached the server (the HTTP request itself failed).
const codeRejectedByTransport = -32005

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

// report turns the outcome of a command into a message on stderr and an
// exit code. It is the only place that does.
func (a *app) report(ctx context.Context, cmd *cobra.Command, err error) int {
	if err == nil {
		return exitOK
	}
	w := a.deps.Err
	var te toolError
	if errors.As(err, &te) {
		return exitToolError
	}
	if errors.Is(err, client.ErrAbandoned) || ctx.Err() != nil && errors.Is(err, context.Canceled) {
		fmt.Fprintln(w, "mcpcli: cancelled; the request was abandoned")
		return exitAbandoned
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(w, "mcpcli: %s\n", render.Line(ue.msg))
		fmt.Fprintf(w, "Run '%s --help' for usage.\n", ue.cmd)
		return exitError
	}
	fmt.Fprintf(w, "mcpcli: %s\n", render.Line(explain(err)))
	var stderr []string
	var ee *transport.ExitError
	var se *transport.StdoutError
	if errors.As(err, &ee) {
		stderr = ee.Stderr
	} else if errors.As(err, &se) {
		stderr = se.Stderr
	}
	if len(stderr) > 0 {
		fmt.Fprintf(w, "  last %d line%s of the server's stderr:\n", len(stderr), plural(len(stderr)))
		for _, l := range stderr {
			fmt.Fprintf(w, "  | %s\n", render.Line(l))
		}
	}
	return exitError
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// explain says what an error means in words, with JSON-RPC errors matched
// by code.
func explain(err error) string {
	var ee *transport.ExitError
	if errors.As(err, &ee) {
		return ee.Error()
	}
	var se *transport.StdoutError
	if errors.As(err, &se) {
		return se.Error()
	}
	var hr *httpRefusal
	if errors.As(err, &hr) {
		return hr.Error()
	}
	var hs *httpStatusError
	if errors.As(err, &hs) {
		return hs.Error()
	}
	var ve *versionError
	if errors.As(err, &ve) {
		return ve.Error()
	}
	var ce *connectError
	var ne *net.OpError
	if errors.As(err, &ne) {
		via := "the server"
		if errors.As(err, &ce) {
			via = ce.via
		}
		return fmt.Sprintf("cannot reach %s: %v; check the URL and that the server is running", via, ne.Err)
	}
	var je *jsonrpc.Error
	if errors.As(err, &je) && je.Code != codeRejectedByTransport {
		msg := strings.TrimSpace(je.Message)
		prefix := ""
		if errors.As(err, &ce) {
			prefix = "connecting to " + ce.via + ": "
		}
		return prefix + describeRPC(je.Code, msg)
	}
	return err.Error()
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
