package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/flow"
	"github.com/mcpcli/mcpcli/internal/plural"
	"github.com/mcpcli/mcpcli/internal/safefile"
	"github.com/mcpcli/mcpcli/request"
)

// Recorded is one request as a front end made and recorded it: the
// request as sent, its rounds as request.Recorder kept them, and how it
// ended.
type Recorded struct {
	Request *request.Request
	Rounds  []request.Round
	Result  *client.Result
	Err     error
}

// Runs are recorded requests as flow runs: each round's asks as they
// came with the answers given (a secret field as an $env: reference).
func Runs(reqs []Recorded) []flow.Run {
	var out []flow.Run
	for _, r := range reqs {
		if r.Request == nil || request.Verb(r.Request.Method) == "" {
			continue
		}
		run := flow.Run{Request: flow.Request{Kind: r.Request.Verb(), Target: r.Request.Target}, Result: r.Result, Err: r.Err}
		if r.Request.Method != request.ResourcesRead && len(r.Request.Args) > 0 {
			run.Args, _ = json.Marshal(r.Request.Args)
		}
		for _, rd := range r.Rounds {
			if len(rd.Asks) == 0 {
				continue // sampling or roots alone: a flow answers elicitations
			}
			lr := flow.LiveRound{Number: rd.Number}
			for _, a := range rd.Asks {
				lr.Asks = append(lr.Asks, flow.Kept(a, rd.Answers[a.Key]))
			}
			run.Rounds = append(run.Rounds, lr)
		}
		out = append(out, run)
	}
	return out
}

// FromSession are a session's requests as recorded, but those still
// running.
func FromSession(reqs []request.Saved) []Recorded {
	var out []Recorded
	for _, r := range reqs {
		if r.Request == nil || r.Result == nil && r.Err == nil {
			continue
		}
		out = append(out, Recorded{Request: r.Request, Rounds: r.Rounds, Result: r.Result, Err: r.Err})
	}
	return out
}

// Save writes reqs as the flow file path: a new file, or one mcpcli wrote
// before (a recording, kept or not as a test) and nobody has changed
// since, as the ledger l says; never another file, however it begins
// (safefile.Write). It returns what to tell the person. A request whose
// round mcpcli's own answerer could not answer (an answers file without
// the key, a value that does not fit) is not written: it has no answer to
// replay, and its flow would never pass (*UnansweredError).
func Save(path string, server flow.Server, reqs []Recorded, l *safefile.Ledger) (string, error) {
	for i, r := range reqs {
		for _, rd := range r.Rounds {
			if rd.Err != nil && len(rd.Asks) > 0 {
				return "", &UnansweredError{Path: path, Step: i + 1, Round: rd.Number, Err: rd.Err}
			}
		}
	}
	return SaveRuns(path, server, Runs(reqs), l)
}

// UnansweredError is a recording Save refused: mcpcli could not answer
// round Round of step Step (Err says why), so the flow has nothing to
// replay there.
type UnansweredError struct {
	Path        string
	Step, Round int
	Err         error
}

func (e *UnansweredError) Error() string {
	return fmt.Sprintf("%s not written: mcpcli could not answer round %d of step %d (%v), so the flow would have no answer to replay; fix the answers (or answer by hand) and record again", e.Path, e.Round, e.Step, e.Err)
}

func (e *UnansweredError) Unwrap() error { return e.Err }

// Recording is --record FILE on a one-shot command: the request kept as
// it goes (a request.Recorder hooked into the client by Adjust), written
// as a flow file when it ends (Save). A nil *Recording records nothing.
type Recording struct {
	Path   string
	Server flow.Server
	// Ledger proves the files mcpcli wrote: Path is written over only
	// when it says mcpcli wrote it (Save).
	Ledger *safefile.Ledger
	rec    request.Recorder
}

// Adjust hooks the recorder into the client's options (nil without a
// recording).
func (r *Recording) Adjust() func(*client.Options) {
	if r == nil {
		return nil
	}
	return func(o *client.Options) {
		r.rec.Hook(o)
		o.Answerer = r.rec.Answerer(o.Answerer)
	}
}

// Save writes the flow file of req, ended with res or err, and returns
// what to tell the person ("" without a recording).
func (r *Recording) Save(req *request.Request, res *client.Result, err error) (string, error) {
	if r == nil {
		return "", nil
	}
	var rounds []request.Round
	for _, id := range r.rec.Calls() {
		rounds = append(rounds, r.rec.Rounds(id)...)
	}
	return Save(r.Path, r.Server, []Recorded{{Request: req, Rounds: rounds, Result: res, Err: err}}, r.Ledger)
}

// Finish ends a run recorded to r (nil: none): it writes the flow file
// of req, ended with res or err, says through say what became of it, and
// returns the run's error, out (its result printed, or why not). A file
// that could not be written never costs the result: when the run itself
// went wrong it is said, and out stays the error. A request that could not
// replay is refused in one line (*UnansweredError), not as an error.
func (r *Recording) Finish(say func(string), req *request.Request, res *client.Result, err, out error) error {
	msg, serr := r.Save(req, res, err)
	var ue *UnansweredError
	switch {
	case errors.As(serr, &ue):
		say("--record " + ue.Error())
	case serr != nil && out != nil:
		say(serr.Error())
	case serr != nil:
		return serr
	case msg != "":
		say(msg)
	}
	return out
}

// SaveRuns writes runs as the flow file path, as Save does.
func SaveRuns(path string, server flow.Server, runs []flow.Run, l *safefile.Ledger) (string, error) {
	f, err := flow.FromRecording(path, server, false, runs)
	if err != nil {
		return "", err
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
	}
	if err := safefile.Write(path, f.Format(), 0o644, l); err != nil {
		return "", err
	}
	msg := fmt.Sprintf("saved the flow %s (%s); run it again with: mcpcli test %s", path, plural.Count(len(runs), "step", "steps"), path)
	if n := secretRefs(runs); n > 0 {
		msg += fmt.Sprintf("; %s from the environment (the file names the variables)", plural.Count(n, "answer takes its secret", "answers take their secrets"))
	}
	return msg, nil
}

// secretRefs counts the $env: references a recording wrote.
func secretRefs(runs []flow.Run) int {
	n := 0
	for _, r := range runs {
		for _, lr := range r.Rounds {
			for _, a := range lr.Asks {
				n += strings.Count(string(a.Answer.Content), `"$env:`)
			}
		}
	}
	return n
}
