package flow

import (
	"fmt"
	"strings"
)

// Update rewrites the expectations of f from live runs (runs[i] is step
// i's), as `mcpcli test --update` does, and returns the new file. It
// touches only what the runs contradict:
//
//   - an assert that still holds is kept as written (a pattern stays a
//     pattern); one that fails becomes an exact == of what came, its
//     trailing comment kept; one about a field that is gone is removed;
//   - an ask or a round that came and was not expected is added, with
//     the answer given (a replay cancels an ask the file does not
//     answer); one expected that never came is removed, with its answers;
//   - when an ask checks the type (or choices) of its fields, a new
//     field's type (choices) is added; what the file leaves out stays out;
//   - a result that became an error, or an error that became a result,
//     gets its asserts redone.
//
// Every other line, answers and comments included, is kept byte for byte.
func (f *File) Update(runs []Run) (*File, error) {
	e := &editor{lines: f.lines, repl: map[int][]string{}, after: map[int][]string{}, crlf: f.crlf}
	for i, st := range f.Steps {
		if i >= len(runs) {
			continue
		}
		e.step(st, runs[i])
	}
	out := &File{lines: e.result(), noEOL: f.noEOL, crlf: f.crlf}
	nf, err := Parse(f.Name, out.Format())
	if err != nil {
		return nil, fmt.Errorf("flow: the updated file does not read back (%v); please report it", err)
	}
	return nf, nil
}

// editor plans edits by line, then applies them all at once, so that the
// lines it reasons about keep their numbers.
type editor struct {
	lines []string
	repl  map[int][]string // line i becomes these (none: deleted)
	after map[int][]string // lines added after line i
	crlf  bool
}

func (e *editor) replace(i int, s string) { e.repl[i] = []string{s} }

func (e *editor) remove(from, to int) {
	for i := from; i <= to; i++ {
		e.repl[i] = []string{}
	}
}

func (e *editor) insert(after int, s ...string) { e.after[after] = append(e.after[after], s...) }

func (e *editor) result() []string {
	eol := func(s string) string {
		if e.crlf {
			return s + "\r"
		}
		return s
	}
	var out []string
	emit := func(i int) {
		for _, s := range e.after[i] {
			out = append(out, eol(s))
		}
	}
	emit(-1)
	for i, l := range e.lines {
		if r, ok := e.repl[i]; ok {
			for _, s := range r {
				if strings.HasSuffix(l, "\r") {
					s += "\r"
				}
				out = append(out, s)
			}
		} else {
			out = append(out, l)
		}
		emit(i)
	}
	return out
}

// indent is line i's leading space.
func (e *editor) indent(i int) string {
	l := e.lines[i]
	return l[:len(l)-len(strings.TrimLeft(l, " \t"))]
}

func (e *editor) step(st *Step, run Run) {
	live := map[int]LiveRound{}
	for _, lr := range run.Rounds {
		live[lr.Number] = lr
	}
	inFile := map[int]*Round{}
	for _, r := range st.Rounds {
		inFile[r.Number] = r
		if lr, ok := live[r.Number]; ok {
			e.round(r, lr)
		} else {
			e.removeRound(r)
		}
	}
	for _, lr := range run.Rounds {
		if inFile[lr.Number] != nil {
			continue
		}
		anchor := st.reqEnd
		for _, r := range st.Rounds {
			if r.Number < lr.Number {
				anchor = roundEnd(r)
			}
		}
		e.insert(anchor, roundLines(lr)...)
	}
	e.updateResult(st, run)
}

// roundEnd is the index of a round's last line.
func roundEnd(r *Round) int {
	end := r.Line - 1
	for _, a := range r.Asks {
		end = max(end, askEnd(a))
	}
	for _, a := range r.Answers {
		end = max(end, a.end)
	}
	return end
}

func askEnd(a *AskSpec) int {
	end := a.Line - 1
	for _, c := range a.Asserts {
		end = max(end, c.Line-1)
	}
	return end
}

func (e *editor) removeAsk(a *AskSpec) {
	e.remove(a.Line-1, a.Line-1)
	for _, c := range a.Asserts {
		e.remove(c.Line-1, c.Line-1)
	}
}

func (e *editor) removeRound(r *Round) {
	e.remove(r.Line-1, r.Line-1)
	for _, a := range r.Asks {
		e.removeAsk(a)
	}
	for _, a := range r.Answers {
		e.remove(a.Line-1, a.end)
	}
}

func (e *editor) round(r *Round, lr LiveRound) {
	live := map[string]liveAsk{}
	for _, a := range lr.Asks {
		live[a.Key] = readAsk(a)
	}
	for _, spec := range r.Asks {
		if la, ok := live[spec.Key]; ok {
			e.ask(spec, la)
		} else {
			e.removeAsk(spec)
		}
	}
	for _, a := range r.Answers {
		if _, ok := live[a.Key]; !ok {
			e.remove(a.Line-1, a.end)
		}
	}
	want := expectedKeys(r)
	for _, a := range lr.Asks {
		if !contains(want, a.Key) {
			e.insert(roundEnd(r), append(askLines(readAsk(a)), answerLine(a.Answer))...)
		}
	}
}

// exact is the line an assert becomes when it fails: == what came, in
// the line's own indentation, with its comment.
func (e *editor) exact(c *Assert, got any) {
	e.replace(c.Line-1, e.indent(c.Line-1)+checkLine(c.Subject, c.Field, Equal, got)+c.comment)
}

func (e *editor) ask(spec *AskSpec, la liveAsk) {
	if spec.Mode != "" && spec.Mode != la.Mode {
		e.replace(spec.Line-1, e.indent(spec.Line-1)+"ask "+word(spec.Key)+" "+la.Mode+spec.comment)
	}
	typed, enumed := map[string]bool{}, map[string]bool{}
	tracksTypes, tracksEnums := false, false
	var known []string // the fields the file knew of, when it says
	for _, c := range spec.Asserts {
		if c.Subject == SubjFields && c.Op == Equal {
			known, _ = c.Value.([]string)
		}
	}
	for _, c := range spec.Asserts {
		var got any
		switch c.Subject {
		case SubjMessage:
			got = la.Message
		case SubjURL:
			got = la.URL
		case SubjFields:
			got = la.shape.fields
		case SubjRequired:
			got = la.shape.required
		case SubjType:
			tracksTypes = true
			typed[c.Field] = true
			if !contains(la.shape.fields, c.Field) {
				e.remove(c.Line-1, c.Line-1)
				continue
			}
			got = la.shape.types[c.Field]
		case SubjEnum:
			tracksEnums = true
			enumed[c.Field] = true
			choices, ok := la.shape.enums[c.Field]
			if !ok {
				e.remove(c.Line-1, c.Line-1)
				continue
			}
			got = choices
		}
		if !c.holds(got) {
			e.exact(c, got)
		}
	}
	ind := indCheck
	if len(spec.Asserts) > 0 {
		ind = e.indent(spec.Asserts[0].Line - 1)
	}
	// A field that is new since the file listed the fields gets the
	// asserts its siblings have; one the file chose to leave out stays out.
	isNew := func(f string) bool { return known != nil && !contains(known, f) }
	var add []string
	for _, f := range la.shape.fields {
		if tracksTypes && !typed[f] && isNew(f) {
			add = append(add, ind+checkLine(SubjType, f, Equal, la.shape.types[f]))
		}
	}
	for _, f := range la.shape.fields {
		if _, ok := la.shape.enums[f]; ok && tracksEnums && !enumed[f] && isNew(f) {
			add = append(add, ind+checkLine(SubjEnum, f, Equal, la.shape.enums[f]))
		}
	}
	if len(add) > 0 {
		e.insert(askEnd(spec), add...)
	}
}

func (e *editor) updateResult(st *Step, run Run) {
	exp := st.Result
	if exp == nil {
		if run.Err != nil {
			// The file expected nothing, and the request failed: say so,
			// or it fails again next time.
			end := st.reqEnd
			for _, r := range st.Rounds {
				end = max(end, roundEnd(r))
			}
			e.insert(end, resultLines(run)...)
		}
		return
	}
	ind := indResult
	if len(exp.Asserts) > 0 {
		ind = e.indent(exp.Asserts[0].Line - 1)
	}
	has := map[string]bool{}
	for _, c := range exp.Asserts {
		has[c.Subject] = true
	}
	var facts resultFacts
	if run.Result != nil {
		facts = factsOf(run.Result)
	}
	end := exp.Line - 1
	for _, c := range exp.Asserts {
		end = max(end, c.Line-1)
	}
	var add []string
	for _, c := range exp.Asserts {
		var got any
		switch {
		case c.Subject == SubjRounds:
			got = liveRounds(run)
		case c.Subject == SubjError:
			if run.Err == nil {
				e.remove(c.Line-1, c.Line-1)
				continue
			}
			got = run.Err.Error()
		case run.Result == nil:
			e.remove(c.Line-1, c.Line-1) // about a result that did not come
			continue
		case c.Subject == SubjIsError:
			got = facts.isError
		case c.Subject == SubjText:
			got = facts.text
		case c.Subject == SubjStructured:
			if facts.structured == nil {
				e.remove(c.Line-1, c.Line-1)
				continue
			}
			got = facts.structured
		}
		if !c.holds(got) {
			e.exact(c, got)
		}
	}
	switch {
	case run.Err != nil && !has[SubjError]:
		add = append(add, ind+checkLine(SubjError, "", Equal, run.Err.Error()))
	case run.Err == nil && has[SubjError]:
		// An error that became a result: assert what the result says.
		if run.Kind == Call && !has[SubjIsError] {
			add = append(add, ind+checkLine(SubjIsError, "", Equal, facts.isError))
		}
		if !has[SubjText] {
			add = append(add, ind+checkLine(SubjText, "", Equal, facts.text))
		}
		if facts.structured != nil && !has[SubjStructured] {
			add = append(add, ind+checkLine(SubjStructured, "", Equal, facts.structured))
		}
	}
	if len(add) > 0 {
		e.insert(end, add...)
	}
}
