package shell

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/config"
	"github.com/mcpcli/mcpcli/connect"
	"github.com/mcpcli/mcpcli/internal/shellwords"
	"github.com/mcpcli/mcpcli/oauth"
	"github.com/mcpcli/mcpcli/render"
	"github.com/mcpcli/mcpcli/request"
	"github.com/mcpcli/mcpcli/transport"
	"github.com/mcpcli/mcpcli/urlmode"
)

// Words words errors and notes for a person, naming the commands to run
// as the front end that shows them takes them: the one-shot commands
// ("'mcpcli tools' lists them"), the line shell ("'tools' lists them") and
// the full-screen shell all word the same error the same way. The words
// are chosen here, from the typed errors of request, client, transport,
// oauth and config, which hold no words of their own.
type Words struct {
	// Login names the run's server to mcpcli ("-s NAME", "--url URL"),
	// for the commands a message suggests, or is "".
	Login string
	// Line is the line shell, whose commands are typed without "mcpcli ".
	Line bool
}

// cmd is what starts a command where the words are shown.
func (w Words) cmd() string {
	if w.Line {
		return ""
	}
	return "mcpcli "
}

// Error says what err means in words, and what to do next: the flag to
// try, the command to run.
func (w Words) Error(err error) string {
	login := w.Login
	if msg, ok := w.Request(err); ok {
		return msg
	}
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
		res *request.UnreadableError
		pe  *client.PinError
		sse *transport.SSEError
		oe  *transport.OriginError
		ud  *client.UndeclaredError
		ns  *client.NoSubscribeError
		tl  *transport.TooLargeError
		rd  *transport.RedirectError
		tll *transport.TooLongError
		sc  *transport.StdoutClosedError
		le  *client.ListError
		cpe *client.CapabilityError
	)
	if msg, ok := explainSignIn(err, login); ok {
		return msg
	}
	if msg, ok := explainConfig(err); ok {
		return msg
	}
	var fe *client.FallbackError
	switch {
	case errors.As(err, &fe):
		// Said whole: the older handshake's failure is part of it.
		var ce *client.ConnectError
		if errors.As(err, &ce) {
			return fmt.Sprintf("server (%s) %s", ce.Via, strings.TrimPrefix(fe.Error(), "the server "))
		}
		return fe.Error()
	case errors.As(err, &ns):
		return ns.Error() + "; drop --resource, or watch list changes only"
	case errors.As(err, &ud):
		return Undeclared(ud)
	case errors.As(err, &cpe):
		flag := "--sampling"
		if cpe.Capability == "roots" {
			flag = "--root DIR"
		}
		return cpe.Error() + "; start the session again with " + flag
	case errors.As(err, &oe):
		return oe.Error() + "; the server is broken or hostile"
	case errors.As(err, &sse):
		if sse.Streamable != nil {
			return sse.Error() + "; check the URL's path (Streamable HTTP servers often serve MCP at /mcp, HTTP+SSE servers their stream at /sse)"
		}
		return sse.Error() + "; check the URL (HTTP+SSE servers often serve their stream at /sse), or drop --transport sse"
	case errors.As(err, &pe) && !errors.As(err, &ee) && !errors.As(err, &sc):
		if pe.Got != "" {
			return fmt.Sprintf("server (%s) answered initialize with protocol version %s, not %s as --protocol %s pins; use --protocol auto to accept what it speaks",
				pe.Server, render.Line(pe.Got), pe.Version, pe.Version)
		}
		why := "it did not answer"
		if pe.Discover != nil {
			why = render.Refusal(pe.Discover)
		}
		return fmt.Sprintf("server (%s) did not start a %s session with server/discover (%s), and --protocol %s allows no fallback; use --protocol auto or %s to reach it with the initialize handshake",
			pe.Server, pe.Version, why, pe.Version, client.LegacyVersion)
	case errors.As(err, &tl):
		return tl.Error() + fmt.Sprintf("; if the server means to send that much, raise --max-message-size (now %s)", transport.FormatSize(tl.Limit))
	case errors.As(err, &rd):
		return rd.Error() + "; if the server has really moved, point mcpcli at the new URL"
	case errors.As(err, &se) && errors.As(se.ReadErr, &tll):
		return se.Error() + fmt.Sprintf("; if the server means to send that much, raise --max-message-size (now %s)", transport.FormatSize(int64(tll.Max)))
	case errors.As(err, &res):
		return fmt.Sprintf("server \"%s\" could not read \"%s\" (%d: %s); run '%sresources' to list what it has",
			res.Server, res.URI, res.RPC.Code, rpcMessage(res.RPC.Code, res.RPC.Message), w.cmd())
	case errors.As(err, &ee):
		return ee.Error()
	case errors.As(err, &sc):
		return sc.Error()
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
		return ae.Error() + authAdvice(ae, login)
	case errors.As(err, &hs):
		return hs.Error() + statusAdvice(hs, login)
	case errors.As(err, &ve):
		return ve.Error() + "; use a client or server release with a version in common"
	case errors.As(err, &to):
		if to.Connecting && to.After == connect.DefaultConnectTimeout {
			return to.Error() + "; pass --timeout to wait longer"
		}
		return to.Error() + " (--timeout)"
	case errors.As(err, &re):
		if re.StateOnly {
			return re.Error()
		}
		return re.Error() + " (raise --max-rounds if that is expected)"
	case errors.As(err, &sr):
		return sr.Error() + "; check whether it did, then send it again yourself if that is safe (run the same command again)"
	case errors.As(err, &me):
		return me.Error() + fmt.Sprintf(" (--elicitation %s)", me.Declared)
	case errors.As(err, &ne):
		via := "the server"
		if errors.As(err, &ce) {
			via = ce.Via
		}
		return fmt.Sprintf("cannot reach %s: %v; check the URL and that the server is running", via, ne.Err)
	case errors.As(err, &le) && le.Err != nil && errors.As(err, &je):
		if je.Code == jsonrpc.CodeMethodNotFound {
			return fmt.Sprintf("server \"%s\" does not know %s (-32601 method not found: %s)", le.Server, le.Method, rpcMessage(je.Code, je.Message))
		}
		what := describeRPC(je.Code, strings.TrimSpace(je.Message))
		if je.Code == mcp.CodeMissingRequiredClientCapabilities {
			what = missingCapabilities(je)
		}
		return fmt.Sprintf("server \"%s\" answered %s with an error: %s", le.Server, le.Method, what)
	case errors.As(err, &je) && je.Code != transport.CodeRejectedByTransport:
		prefix := ""
		if errors.As(err, &ce) {
			prefix = "connecting to " + ce.Via + ": "
		}
		if je.Code == mcp.CodeMissingRequiredClientCapabilities {
			return prefix + missingCapabilities(je)
		}
		return prefix + describeRPC(je.Code, strings.TrimSpace(je.Message))
	}
	return err.Error()
}

// Undeclared words a server's request for a capability mcpcli did not
// declare, with the flag that declares it.
func Undeclared(e *client.UndeclaredError) string {
	switch e.Capability {
	case "sampling":
		return e.Error() + "; pass --sampling to read its sampling requests and write the replies yourself (in the session: turn sampling on)"
	case "roots":
		return e.Error() + "; pass --root DIR (repeatable) to give it roots (in the session: add one)"
	}
	return e.Error()
}

// headerCreds names the credentials a person gives mcpcli for a server.
const headerCreds = "the --header values (or the headers of the server's config entry)"

// authAdvice says what to do about a refusal (401, 403), from what the
// refused request carried: it blames only credentials that were sent.
func authAdvice(e *transport.AuthError, login string) string {
	if login == "" {
		login = "--url " + e.URL
	}
	signIn := fmt.Sprintf("'mcpcli auth login %s'", login)
	sent := e.Sent
	if e.Status == http.StatusForbidden {
		switch {
		case sent.Token && sent.Headers:
			return fmt.Sprintf("; neither %s nor your sign-in allow it ('mcpcli auth status %s' shows what the sign-in grants)", headerCreds, login)
		case sent.Token:
			return fmt.Sprintf("; your sign-in does not allow it ('mcpcli auth status %s' shows what it grants; %s signs in again)", login, signIn)
		case sent.Headers:
			return fmt.Sprintf("; %s do not allow it", headerCreds)
		case e.SignsIn:
			return fmt.Sprintf("; mcpcli sent no credentials: sign in with %s, or give them with --header", signIn)
		}
		return "; mcpcli sent no credentials: give them with --header \"Authorization: Bearer TOKEN\" (or in the server's config entry)"
	}
	switch {
	case sent.Token && sent.Headers:
		return fmt.Sprintf("; it refused the sign-in token mcpcli sent: sign in again with %s, or check %s", signIn, headerCreds)
	case sent.Token:
		return fmt.Sprintf("; it refused the sign-in token mcpcli sent: sign in again with %s", signIn)
	case sent.Headers:
		return fmt.Sprintf("; it refused the credentials given: check %s", headerCreds)
	case e.SignsIn:
		return fmt.Sprintf("; mcpcli sent no credentials: sign in with %s", signIn)
	}
	return "; mcpcli sent no credentials, and signs in by itself over Streamable HTTP only: give them with --header \"Authorization: Bearer TOKEN\" (or in the server's config entry)"
}

// statusAdvice says what to do about an HTTP answer without JSON-RPC.
func statusAdvice(e *transport.StatusError, login string) string {
	switch e.Kind {
	case transport.NotFound:
		return ": nothing there answers the request; check the URL's path (servers often serve MCP at /mcp)"
	case transport.ServerFailed:
		if e.Sent.Token {
			// The TypeScript SDK's servers answer a token they cannot
			// verify (one they issued before a restart) with a 500.
			if login == "" {
				login = "--url " + e.URL
			}
			return fmt.Sprintf("; mcpcli sent the sign-in token kept for it, which a server that restarted may have forgotten: sign in again with 'mcpcli auth login %s'", login)
		}
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

// rpcMessage is a server's error message without the code it may repeat
// (the TypeScript SDK writes "MCP error -32602: ..."): mcpcli names the code.
func rpcMessage(code int64, msg string) string {
	msg = strings.TrimSpace(msg)
	if rest, ok := strings.CutPrefix(msg, fmt.Sprintf("MCP error %d:", code)); ok {
		return strings.TrimSpace(rest)
	}
	return msg
}

func describeRPC(code int64, msg string) string {
	msg = rpcMessage(code, msg)
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
	case -32022:
		return fmt.Sprintf("the server supports none of mcpcli's protocol versions (-32022 unsupported protocol version): %s", msg)
	case -32042:
		return fmt.Sprintf("the server requires a URL elicitation first (-32042): %s", msg)
	}
	return fmt.Sprintf("the server answered with error %d: %s", code, msg)
}

// missingCapabilities words a -32021: the capabilities the server named in
// data.requiredCapabilities, each with the flag that declares it.
func missingCapabilities(je *jsonrpc.Error) string {
	msg := rpcMessage(je.Code, je.Message)
	head := "the server needs a client capability mcpcli did not declare (-32021 missing required client capabilities)"
	var data struct {
		Required map[string]json.RawMessage `json:"requiredCapabilities"`
	}
	_ = json.Unmarshal(je.Data, &data)
	var named, hints []string
	hint := func(h string) {
		if !slices.Contains(hints, h) {
			hints = append(hints, h)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(data.Required)) {
		v := data.Required[k]
		switch k {
		case "sampling":
			named = append(named, "sampling")
			hint("pass --sampling to write the model's replies yourself, or turn sampling on in the session")
		case "roots":
			named = append(named, "roots")
			hint("pass --root DIR to give it roots, or add one in the session")
		case "elicitation":
			var modes map[string]json.RawMessage
			_ = json.Unmarshal(v, &modes)
			var ms []string
			for _, m := range slices.Sorted(maps.Keys(modes)) {
				ms = append(ms, render.Line(m))
			}
			if len(ms) == 0 {
				named = append(named, "elicitation")
			} else {
				named = append(named, "elicitation ("+strings.Join(ms, ", ")+" mode)")
			}
			hint("pass --elicitation form,url (mcpcli's default) to declare both modes")
		case "extensions":
			var exts map[string]json.RawMessage
			_ = json.Unmarshal(v, &exts)
			for _, e := range slices.Sorted(maps.Keys(exts)) {
				named = append(named, "the extension "+strconv.Quote(render.Line(e)))
			}
			hint("mcpcli does not support that extension")
		default:
			named = append(named, strconv.Quote(render.Line(k)))
		}
	}
	if len(named) == 0 {
		return fmt.Sprintf("%s: %s (the server did not say which, in data.requiredCapabilities)", head, msg)
	}
	out := fmt.Sprintf("the server needs %s, which mcpcli did not declare (-32021 missing required client capabilities: %s)", strings.Join(named, " and "), msg)
	if len(hints) > 0 {
		out += "; " + strings.Join(hints, "; ")
	}
	return out
}

// explainSignIn words what went wrong signing in (the oauth package's
// typed errors), with the command that signs in again.
func explainSignIn(err error, named string) (string, bool) {
	var (
		sf    *connect.SignInFailed
		si    *oauth.SignInError
		setup *connect.SetupError
		store *oauth.StoreChoiceError
	)
	switch {
	case errors.As(err, &setup):
		return "cannot sign in: " + setup.Err.Error() + " (check --client-id, --client-metadata-url, or the server's oauth settings)", true
	case errors.As(err, &store):
		return store.Error() + "; set " + oauth.EnvTokenStore + " to auto, keyring or file", true
	case !errors.As(err, &si):
		return "", false
	}
	login := named
	if errors.As(err, &sf) {
		login = sf.Login
	}
	if login == "" {
		login = "--url " + si.Server
	}
	again := fmt.Sprintf("'mcpcli auth login %s'", login)
	var (
		req   *oauth.SignInRequiredError
		cb    *oauth.CallbackTimeoutError
		az    *oauth.AuthorizationError
		iss   *oauth.IssuerMismatchError
		res   *oauth.ResourceMismatchError
		scope *oauth.InsufficientScopeError
		limit *oauth.SignInLimitError
		ci    *oauth.ClientIssuerError
		cons  *oauth.ConsentError
		nreg  *oauth.NoRegistrationError
		np    *oauth.NotProtectedError
		ref   *urlmode.RefusedError
	)
	switch {
	case errors.As(err, &req) && !req.Expired.IsZero():
		return fmt.Sprintf("%s, and this run cannot ask you to sign in again (no terminal); sign in with %s on a terminal, or pass --answers FILE to have the link printed (--open-urls opens it)", req.Error(), again), true
	case errors.As(err, &req):
		msg := fmt.Sprintf("server %s requires you to sign in (HTTP %d)", req.Server, req.Status)
		if req.Issuer != "" {
			msg += fmt.Sprintf(" with %q", req.Issuer)
		}
		return msg + fmt.Sprintf(", and this run cannot ask you (no terminal); sign in first with %s on a terminal, or pass --answers FILE to have the link printed (--open-urls opens it)", again), true
	case errors.As(err, &cb):
		return fmt.Sprintf("the sign-in did not come back to mcpcli within %s; try again with %s", cb.Waited, again), true
	case errors.As(err, &az):
		msg := fmt.Sprintf("the authorization server refused the sign-in (%q", az.Code)
		if az.Description != "" {
			msg += fmt.Sprintf(": %q", az.Description)
		}
		return msg + fmt.Sprintf("); try again with %s", again), true
	case errors.As(err, &iss):
		return "sign-in refused: " + iss.Error() + "; this is what a mix-up attack looks like, so sign in again only if you trust the server", true
	case errors.As(err, &res):
		return "sign-in refused: " + res.Error() + "; the server's metadata is wrong or hostile: tell whoever runs it", true
	case errors.As(err, &scope):
		return scope.Error() + fmt.Sprintf("; 'mcpcli auth status %s' shows what was granted", login), true
	case errors.As(err, &limit):
		return fmt.Sprintf("server %s asked for sign-in again after %d sign-ins in this run; giving up ('mcpcli auth status %s' shows what is kept)", limit.Server, limit.Count, login), true
	case errors.As(err, &ci):
		return ci.Error() + fmt.Sprintf(" (pass --client-id with a client ID registered with %q, or run 'mcpcli auth logout %s')", ci.Now, login), true
	case errors.Is(err, urlmode.ErrSignInDeclined):
		return fmt.Sprintf("not signed in to %s: you chose not to open the sign-in link; run %s when you want to", si.Server, again), true
	case errors.As(err, &ref):
		return fmt.Sprintf("not signed in to %s: %v", si.Server, ref), true
	case errors.Is(err, render.ErrNoInput):
		return fmt.Sprintf("not signed in to %s: stdin ended before you answered; run %s on a terminal", si.Server, again), true
	case errors.As(err, &cons):
		return fmt.Sprintf("not signed in to %s: %v", si.Server, cons.Err), true
	case errors.As(err, &nreg):
		how := "register mcpcli with it and pass the client ID with --client-id (its secret, if any, in $" + oauth.EnvClientSecret + ")"
		if nreg.CIMDSupported {
			how = "pass mcpcli's client ID metadata document with --client-metadata-url URL, or a client ID registered with it with --client-id"
		}
		return fmt.Sprintf("cannot sign in to %s: authorization server %q does not register clients by itself; %s", si.Server, nreg.Issuer, how), true
	case errors.As(err, &np):
		return np.Error() + "; there is nothing to sign in to", true
	}
	return fmt.Sprintf("signing in to %s failed: %v", si.Server, si.Err), true
}

// explainConfig words the config package's errors where a flag helps.
func explainConfig(err error) (string, bool) {
	var (
		ex *config.ExistsError
		nf *config.NotFoundError
		ut *config.UntrustedError
	)
	switch {
	case errors.As(err, &ut):
		trust := "'mcpcli servers trust " + shellwords.Quote(ut.Source.Path) + "'"
		switch {
		case ut.Declined:
			return fmt.Sprintf("%s; once you have read it, %s trusts it", render.Line(ut.Error()), trust), true
		case ut.Err != nil:
			return fmt.Sprintf("%s, and asking failed (%s); read it, then %s (or pass --trust-project to trust the project's files for this run)", render.Line(ut.Error()), render.Line(ut.Err.Error()), trust), true
		}
		return fmt.Sprintf("%s; read it, then %s (or pass --trust-project to trust the project's files for this run)", render.Line(ut.Error()), trust), true
	case errors.As(err, &ex):
		return fmt.Sprintf("server %q is already in %s; pass --force to replace it, or 'mcpcli servers remove %s' first", ex.Name, ex.File, ex.Name), true
	case errors.As(err, &nf):
		return nf.Error() + " (--config FILE reads another file first)", true
	}
	return "", false
}
