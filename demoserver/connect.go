package demoserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpcli/mcpcli/internal/htmltext"
)

type connectState struct {
	ID       string `json:"id"`
	Service  string `json:"service"`
	Attempts int    `json:"attempts"`
}

// connectWait is how long a retry waits for the browser step before asking
// again: the spec lets the server block until the interaction completes.
const connectWait = 3 * time.Second

func (d *Demo) connectAccount(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	bind := binding("tools/call", req.Params.Name, req.Params.Arguments)
	service := str(argsOf(req), "service", "calendar")
	var st connectState
	if req.Params.RequestState == "" {
		if !canAsk(req, "url") {
			return text("Cannot connect %s: this client did not declare URL-mode elicitation, and the credentials must not pass through it. Use a client that supports URL mode.", service), nil
		}
		if err := d.startPage(); err != nil {
			return nil, fmt.Errorf("starting the connect page: %w", err)
		}
		st = connectState{ID: newID(), Service: service}
		d.mu.Lock()
		d.connected[st.ID] = false // issued, not yet done
		d.mu.Unlock()
		return d.askConnect(bind, st, fmt.Sprintf("Connect your %s account: sign in on the page that opens. Your password goes to that page, never through this client.", service))
	}
	if _, err := d.state.open(req.Params.RequestState, bind, &st); err != nil {
		return nil, invalidParams(err)
	}
	r := response(req.Params.InputResponses, "connect")
	if r == nil {
		return nil, invalidParams(fmt.Errorf("the retry carries no answer for \"connect\""))
	}
	if r.Action != "accept" {
		return notAccepted(r, "connecting "+st.Service), nil
	}
	if d.waitConnected(ctx, st.ID, connectWait) {
		return text("Connected your %s account. The credentials stayed between your browser and the server.", st.Service), nil
	}
	st.Attempts++
	if st.Attempts >= d.opts.ConnectPatience {
		res := text("Not connected: the browser step for %s was not finished after %d tries. Run connect_account again and finish the page.", st.Service, st.Attempts)
		res.IsError = true
		return res, nil
	}
	return d.askConnect(bind, st, fmt.Sprintf("Not finished yet: finish signing in to %s in your browser, then continue.", st.Service))
}

func (d *Demo) askConnect(bind string, st connectState, message string) (*mcp.CallToolResult, error) {
	state, err := d.state.seal(bind, 1, st)
	if err != nil {
		return nil, err
	}
	u := d.pageURL + "/connect?" + url.Values{"id": {st.ID}, "service": {st.Service}}.Encode()
	return &mcp.CallToolResult{RequestState: state, InputRequests: mcp.InputRequestMap{
		"connect": &mcp.ElicitParams{Mode: "url", Message: message, URL: u, ElicitationID: st.ID},
	}}, nil
}

func newID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// waitConnected reports whether id is connected, waiting up to d for it.
func (d *Demo) waitConnected(ctx context.Context, id string, wait time.Duration) bool {
	deadline := time.Now().Add(wait)
	for {
		d.mu.Lock()
		done := d.connected[id]
		d.mu.Unlock()
		if done || time.Now().After(deadline) {
			return done
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// PageURL is the connect page's base URL, once started ("" before).
func (d *Demo) PageURL() string { return d.pageURL }

func (d *Demo) startPage() error {
	d.pageOnce.Do(func() {
		ln, err := net.Listen("tcp", d.opts.PageAddr)
		if err != nil {
			d.pageErr = err
			return
		}
		mux := http.NewServeMux()
		mux.HandleFunc("GET /connect", d.servePage)
		mux.HandleFunc("POST /connect", d.serveComplete)
		d.page = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		d.pageURL = "http://" + ln.Addr().String()
		go d.page.Serve(ln)
	})
	return d.pageErr
}

// writePage writes the connect page. Every string in it is escaped
// (htmltext.Escape): the service's name and the link's id, which come
// from the page's address, go into element text and double-quoted
// attribute values, where that is all the escaping there is to do.
func writePage(w io.Writer, d pageData) error {
	esc := htmltext.Escape
	service := esc(d.Service)
	var b strings.Builder
	b.WriteString(`<!doctype html>
<html><head><meta charset="utf-8"><title>Connect ` + service + ` — mcpcli demo</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font-size:1.1rem;padding:.5rem 1.2rem}</style>
</head><body>
`)
	switch {
	case d.Done:
		b.WriteString(`<h1 id="done">Connected</h1><p>Your `)
		if d.Service != "" {
			b.WriteString(service + " ")
		}
		b.WriteString("account is connected. Close this tab and go back to your terminal.</p>\n")
	case d.Unknown:
		b.WriteString("<h1>Link not valid</h1><p>This connect link is unknown or already used. Start again from your MCP client.</p>\n")
	default:
		b.WriteString(`<h1>Connect ` + service + `</h1>
<p>The mcpcli demo server asks to connect your ` + service + ` account. In a real server, you would sign in here; the secret stays between this page and the server.</p>
<form id="connect" method="post" action="/connect"><input type="hidden" name="id" value="` + esc(d.ID) + `"><input type="hidden" name="service" value="` + service + `"><button type="submit">Connect ` + service + `</button></form>
`)
		if d.Auto {
			b.WriteString(`<script>document.getElementById("connect").submit();</script>`)
		}
		b.WriteString("\n")
	}
	b.WriteString("</body></html>")
	_, err := io.WriteString(w, b.String())
	return err
}

type pageData struct {
	ID, Service         string
	Auto, Done, Unknown bool
}

// pageHeaders are what a page that takes a sign-in should send: no
// caching, no framing, no referrer leaking the link's id, and only its own
// inline script and style.
func pageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
}

func (d *Demo) servePage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id, service := q.Get("id"), q.Get("service")
	pageHeaders(w)
	d.mu.Lock()
	done, issued := d.connected[id]
	d.mu.Unlock()
	switch {
	case !issued:
		w.WriteHeader(http.StatusNotFound)
		_ = writePage(w, pageData{Unknown: true})
	case done: // opened again after finishing: say so, do not offer it twice
		_ = writePage(w, pageData{Done: true, Service: service})
	default:
		_ = writePage(w, pageData{ID: id, Service: service, Auto: q.Get("auto") == "1"})
	}
}

func (d *Demo) serveComplete(w http.ResponseWriter, r *http.Request) {
	id := r.PostFormValue("id")
	pageHeaders(w)
	d.mu.Lock()
	_, issued := d.connected[id]
	if issued {
		d.connected[id] = true
	}
	d.mu.Unlock()
	if !issued {
		w.WriteHeader(http.StatusNotFound)
		_ = writePage(w, pageData{Unknown: true})
		return
	}
	_ = writePage(w, pageData{Done: true, Service: r.PostFormValue("service")})
}
