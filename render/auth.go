package render

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpcli/mcpcli/oauth"
)

// SignIns is what mcpcli keeps for a server's sign-in, as auth status and
// auth login show it (or, with JSON, their -o json form).
type SignIns struct {
	Status *oauth.Status
	JSON   bool
	Now    time.Time
	// Login names the server to mcpcli auth login ("-s NAME").
	Login string
}

// signInStatus is auth status -o json.
type signInStatus struct {
	Server   string         `json:"server"`
	Where    string         `json:"where"`
	SignedIn bool           `json:"signedIn"`
	Records  []signInRecord `json:"records"`
}

type signInRecord struct {
	Issuer       string    `json:"issuer"`
	Resource     string    `json:"resource,omitempty"`
	Current      bool      `json:"current"`
	ClientID     string    `json:"clientId"`
	Registration string    `json:"registration"`
	Scopes       []string  `json:"scopes"`
	Expiry       time.Time `json:"expiry,omitzero"`
	Refreshable  bool      `json:"refreshable"`
	Saved        time.Time `json:"saved"`
}

func (s SignIns) json(w io.Writer) error {
	st := s.Status
	out := signInStatus{Server: st.Server, Where: st.Where, SignedIn: len(st.Records) > 0, Records: []signInRecord{}}
	for _, r := range st.Records {
		out.Records = append(out.Records, signInRecord{Issuer: r.Issuer, Resource: r.Resource, Current: r.Current, ClientID: r.ClientID,
			Registration: r.Registration, Scopes: r.Scopes, Expiry: r.Expiry, Refreshable: r.Refreshable, Saved: r.Saved})
	}
	return WriteJSON(w, out)
}

// LoggedIn says a sign-in just made, and where its token is kept.
func (s SignIns) LoggedIn(w io.Writer) error {
	st := s.Status
	if s.JSON {
		return s.json(w)
	}
	if len(st.Records) == 0 {
		fmt.Fprintf(w, "Signed in to %s, for this run only: the token could not be kept in %s\n", Line(st.Server), Line(st.Where))
		return nil
	}
	r := st.Records[0]
	scopes := ""
	if len(r.Scopes) > 0 {
		scopes = " (scopes: " + Line(strings.Join(r.Scopes, " ")) + ")"
	}
	fmt.Fprintf(w, "Signed in to %s with %s%s; the token is kept in %s\n", Line(st.Server), Line(r.Issuer), scopes, Line(st.Where))
	return nil
}

// Write writes what is kept: each authorization server's tokens, client,
// scopes, expiry.
func (s SignIns) Write(w io.Writer) error {
	st := s.Status
	if s.JSON {
		return s.json(w)
	}
	if len(st.Records) == 0 {
		fmt.Fprintf(w, "Not signed in to %s (nothing is kept for it in %s); 'mcpcli auth login %s' signs in\n",
			Line(st.Server), Line(st.Where), Line(s.Login))
		return nil
	}
	fmt.Fprintf(w, "%s\n  tokens kept in %s\n", Line(st.Server), Line(st.Where))
	for _, r := range st.Records {
		use := "signed in with"
		if !r.Current {
			use = "also kept, not in use:"
		}
		fmt.Fprintf(w, "  %s %s\n", use, Line(r.Issuer))
		fmt.Fprintf(w, "    client:  %s (%s)\n", Line(r.ClientID), registrationText(r.Registration))
		if len(r.Scopes) > 0 {
			fmt.Fprintf(w, "    scopes:  %s\n", Line(strings.Join(r.Scopes, " ")))
		}
		fmt.Fprintf(w, "    expires: %s\n", expiryText(r, s.Now))
		fmt.Fprintf(w, "    saved:   %s\n", r.Saved.Local().Format(time.DateTime))
	}
	return nil
}

func registrationText(kind string) string {
	switch kind {
	case oauth.RegistrationCIMD:
		return "client ID metadata document"
	case oauth.RegistrationPreregistered:
		return "registered beforehand"
	case oauth.RegistrationDynamic:
		return "registered by mcpcli"
	}
	return Line(kind)
}

// expiryText says when the access token expires, and what happens then.
func expiryText(r oauth.RecordStatus, now time.Time) string {
	then := "then mcpcli signs in again"
	if r.Refreshable {
		then = "then it is refreshed without asking"
	}
	switch {
	case r.Expiry.IsZero():
		return "not said by the server; " + then + " when the server refuses it"
	case r.Expiry.After(now):
		return fmt.Sprintf("%s (in %s); %s", r.Expiry.Local().Format(time.DateTime), r.Expiry.Sub(now).Round(time.Minute), then)
	}
	return fmt.Sprintf("%s (expired %s ago); %s", r.Expiry.Local().Format(time.DateTime), now.Sub(r.Expiry).Round(time.Minute), then)
}

// LoggedOut says auth logout forgot what was kept for server in where,
// or (had false) that nothing was.
func LoggedOut(w io.Writer, server, where string, had bool) {
	if !had {
		fmt.Fprintf(w, "Nothing was kept for %s in %s\n", Line(oauth.ServerKey(server)), Line(where))
		return
	}
	fmt.Fprintf(w, "Signed out of %s: its tokens and client registration are gone from %s (they are not revoked at the authorization server)\n",
		Line(oauth.ServerKey(server)), Line(where))
}
