package tourtape

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// Step is one ask of the tour and what the person does with it.
type Step struct {
	// Name says where the tour is ("4/7 create_repo, round 2").
	Name string
	// Wait are texts the screen shows once the step is up.
	Wait []string
	// Do is done in order, each action once the last one has shown.
	Do []Action
}

// Action is keys pressed (or text typed), then what they show.
type Action struct {
	// Type is typed a character at a time; then Keys are pressed, each
	// after a pause.
	Type string
	Keys []string
	// Then are texts the screen shows once the keys have done their
	// work; the next key waits for them (a key that lands between two
	// screens is echoed by the terminal, or taken by the next one).
	Then []string
	// Run, when set, is run with that screen.
	Run func(screen string) error
}

// Tour is the whole tour, flow by flow: accept, pick, type, a wizard
// declined at its second round, a page finished "in the browser", a
// prompt's ask and a resource's ask cancelled.
func Tour() []Step {
	review := []string{"Review: accept sends this"}
	return []Step{
		{Name: "1/7 delete_project", Wait: []string{"Tour 1/7", "Delete it for good?"}, Do: []Action{
			{Keys: []string{"y"}, Then: review},
			{Keys: []string{"Enter"}}}},
		{Name: "2/7 switch_account", Wait: []string{"Tour 2/7", "Which one should I use?"}, Do: []Action{
			{Keys: []string{"Down"}, Then: []string{"> Work"}},
			{Keys: []string{"C-s"}, Then: review},
			{Keys: []string{"Enter"}}}},
		{Name: "3/7 edit_profile", Wait: []string{"Tour 3/7", "Full name"}, Do: []Action{
			{Type: "Ada Lovelace", Then: []string{"> Ada Lovelace"}},
			{Keys: []string{"C-s"}, Then: review},
			{Keys: []string{"Enter"}}}},
		{Name: "4/7 create_repo, round 1", Wait: []string{"Tour 4/7", "Repository name"}, Do: []Action{
			{Keys: []string{"C-s"}, Then: review},
			{Keys: []string{"Enter"}}}},
		{Name: "4/7 create_repo, round 2", Wait: []string{"Tour 4/7", "round 2", "Invite collaborators"}, Do: []Action{
			{Keys: []string{"Space"}, Then: []string{"[x] Grace Hopper"}},
			{Keys: []string{"C-x"}}}},
		{Name: "5/7 connect_account", Wait: []string{"Tour 5/7", "o open in browser"}, Do: []Action{
			{Keys: []string{"o"}, Then: []string{"Finish in your browser"}, Run: FinishConnect},
			{Keys: []string{"Enter"}}}},
		{Name: "6/7 release_notes", Wait: []string{"Tour 6/7", "Who are the release notes for?"}, Do: []Action{
			{Keys: []string{"Up"}, Then: []string{"> Developers"}},
			{Keys: []string{"C-s"}, Then: review},
			{Keys: []string{"Enter"}}}},
		{Name: "7/7 demo://reports/q3", Wait: []string{"Tour 7/7", "How much of the Q3 report"}, Do: []Action{
			{Keys: []string{"Escape"}}}},
	}
}

// Marks are the markers a recording of Tour has: a chapter a flow, and
// each round with the actions sent.
func Marks() []string {
	return []string{
		"Tour 1/7 · Confirm a destructive action",
		"delete_project · round 1 · confirm_delete: accept",
		"Tour 2/7 · Pick an account",
		"switch_account · round 1 · account: accept",
		"Tour 3/7 · Fill in a profile",
		"edit_profile · round 1 · profile: accept",
		"Tour 4/7 · A two-round wizard",
		"create_repo · round 1 · basics: accept",
		"create_repo · round 2 · details: decline",
		"Tour 5/7 · Connect an account (URL mode)",
		"connect_account · round 1 · connect: accept",
		"Tour 6/7 · An ask from a prompt",
		"release_notes · round 1 · audience: accept",
		"Tour 7/7 · An ask from a resource",
		"demo://reports/q3 · round 1 · detail: cancel",
	}
}

// Options pace a tour.
type Options struct {
	// Pause is how long each screen stays before a key is pressed (for
	// a viewer to read it, and longer than the forms' guard against keys
	// typed ahead); 0 goes as fast as the screens come (with the guard
	// off). Read is the pause on the first screen of each step, longer: a
	// new ask.
	Pause, Read time.Duration
	// TypeDelay is the time between the characters typed.
	TypeDelay time.Duration
	// Timeout bounds each wait for a screen.
	Timeout time.Duration
	// OnScreen sees each step's screen once it is up, and after its keys.
	OnScreen func(step string, screen string)
}

// Play plays steps on t.
func Play(t *Tmux, steps []Step, o Options) error {
	if o.Timeout == 0 {
		o.Timeout = 20 * time.Second
	}
	see := func(name, s string) {
		if o.OnScreen != nil {
			o.OnScreen(name, s)
		}
	}
	for _, st := range steps {
		s, err := t.WaitFor(o.Timeout, st.Wait...)
		if err != nil {
			return fmt.Errorf("tour step %s: %w", st.Name, err)
		}
		see(st.Name, s)
		time.Sleep(max(o.Read-o.Pause, 0))
		for i, a := range st.Do {
			if err := act(t, a, o); err != nil {
				return fmt.Errorf("tour step %s: %w", st.Name, err)
			}
			if len(a.Then) == 0 {
				continue
			}
			s, err := t.WaitFor(o.Timeout, a.Then...)
			if err != nil {
				return fmt.Errorf("tour step %s: %w", st.Name, err)
			}
			see(fmt.Sprintf("%s (%d)", st.Name, i+1), s)
			if a.Run != nil {
				if err := a.Run(s); err != nil {
					return fmt.Errorf("tour step %s: %w", st.Name, err)
				}
			}
		}
	}
	return nil
}

func act(t *Tmux, a Action, o Options) error {
	if a.Type != "" {
		time.Sleep(o.Pause)
		for _, r := range a.Type {
			if err := t.Type(string(r)); err != nil {
				return err
			}
			time.Sleep(o.TypeDelay)
		}
	}
	for _, k := range a.Keys {
		time.Sleep(o.Pause)
		if err := t.Keys(k); err != nil {
			return err
		}
	}
	return nil
}

// connectURL finds the demo server's connect page on a screen.
var connectURL = regexp.MustCompile(`http://127\.0\.0\.1:\d+/connect\?[^\s]+`)

// FinishConnect does what the person does in the browser at the URL
// step: it finds the connect page's URL on the screen, and submits its
// form, as a click on "Connect" would.
func FinishConnect(screen string) error {
	u := connectURL.FindString(screen)
	if u == "" {
		return fmt.Errorf("no connect URL on the screen:\n%s", screen)
	}
	page, err := url.Parse(u)
	if err != nil {
		return err
	}
	q := page.Query()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	form := url.Values{"id": {q.Get("id")}, "service": {q.Get("service")}}
	page.RawQuery = ""
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, page.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the connect page answered %s", resp.Status)
	}
	return nil
}
