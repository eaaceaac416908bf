package report

import (
	"bytes"
	"encoding/xml"
	"testing"
)

// The JUnit document as encoding/xml wrote it before xmlOut took its
// place: the same shape, declared with tags.
type (
	tagFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Body    string `xml:",chardata"`
	}
	tagCase struct {
		XMLName   xml.Name     `xml:"testcase"`
		Name      string       `xml:"name,attr"`
		Classname string       `xml:"classname,attr"`
		Time      string       `xml:"time,attr,omitempty"`
		Errors    []tagFailure `xml:"error"`
		Failures  []tagFailure `xml:"failure"`
		SystemOut []string     `xml:"system-out"`
	}
	tagSuite struct {
		XMLName   xml.Name  `xml:"testsuite"`
		Name      string    `xml:"name,attr"`
		Tests     int       `xml:"tests,attr"`
		Failures  int       `xml:"failures,attr"`
		Errors    int       `xml:"errors,attr"`
		Time      string    `xml:"time,attr"`
		Cases     []tagCase `xml:"testcase"`
		SystemOut string    `xml:"system-out,omitempty"`
	}
	tagSuites struct {
		XMLName  xml.Name   `xml:"testsuites"`
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Errors   int        `xml:"errors,attr"`
		Time     string     `xml:"time,attr"`
		Suites   []tagSuite `xml:"testsuite"`
	}
)

func tagged(doc junitSuites) tagSuites {
	fails := func(fs []junitFailure) (out []tagFailure) {
		for _, f := range fs {
			out = append(out, tagFailure(f))
		}
		return out
	}
	t := tagSuites{Name: doc.Name, Tests: doc.Tests, Failures: doc.Failures, Errors: doc.Errors, Time: doc.Time}
	for _, s := range doc.Suites {
		ts := tagSuite{Name: s.Name, Tests: s.Tests, Failures: s.Failures, Errors: s.Errors, Time: s.Time, SystemOut: s.SystemOut}
		for _, c := range s.Cases {
			ts.Cases = append(ts.Cases, tagCase{Name: c.Name, Classname: c.Classname, Time: c.Time, Errors: fails(c.Errors), Failures: fails(c.Failures), SystemOut: c.SystemOut})
		}
		t.Suites = append(t.Suites, ts)
	}
	return t
}

// encodingXML is what JUnit wrote with encoding/xml.
func encodingXML(t testing.TB, doc junitSuites) string {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(tagged(doc)); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n")
	return b.String()
}

// hostile holds what a server's strings can hold that XML must escape or
// cannot hold at all.
const hostile = "a \"quoted\" 'word' <tag> & then\ttab\nnewline\rreturn \x01\x1f\x7f \xff\xfe bad UTF-8 \ufffd \ufffe \U0001F600 ]]> end"

func TestXMLOutWritesWhatEncodingXMLWrote(t *testing.T) {
	docs := map[string]junitSuites{
		"no flows": {Name: "empty", Time: "0.000"},
		"every part": {Name: "mcpcli " + hostile, Tests: 4, Failures: 1, Errors: 1, Time: "1.250", Suites: []junitSuite{
			{Name: "broken.flow", Tests: 1, Errors: 1, Time: "0.010", SystemOut: "finding one\nfinding " + hostile,
				Cases: []junitCase{{Name: "run", Classname: "broken.flow", Errors: []junitFailure{{Message: "could not start", Type: "error", Body: "could not start\n" + hostile}}}}},
			{Name: hostile, Tests: 3, Failures: 1, Time: "1.240", Cases: []junitCase{
				{Name: "step 1: call " + hostile, Classname: hostile},
				{Name: "step 2", Classname: "c", Time: "0.5", Failures: []junitFailure{{Message: hostile, Type: "content", Body: "- want\n+ got " + hostile}, {Message: "second", Type: "lint x", Body: ""}}, SystemOut: []string{"warning " + hostile, ""}},
				{Name: "step 3", Classname: "c", SystemOut: []string{"only output"}},
			}},
			{Name: "no steps", Time: "0.000"},
		}},
	}
	for name, doc := range docs {
		if got, want := doc.xml(), encodingXML(t, doc); got != want {
			t.Errorf("%s: junitSuites.xml() =\n%s\nencoding/xml wrote\n%s", name, got, want)
		}
	}
}

func FuzzXMLOutEscapesAsEncodingXML(f *testing.F) {
	for _, s := range []string{"", hostile, "plain", "\x00", "\xed\xa0\x80"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, name, body string) {
		doc := junitSuites{Name: name, Suites: []junitSuite{{Name: body, SystemOut: body, Cases: []junitCase{{Name: name, Classname: body, Failures: []junitFailure{{Message: name, Type: body, Body: body}}, SystemOut: []string{name}}}}}}
		if got, want := doc.xml(), encodingXML(t, doc); got != want {
			t.Errorf("junitSuites.xml() =\n%q\nencoding/xml wrote\n%q", got, want)
		}
	})
}
