package check

import (
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/agent-analysis/agent-analysis/kit/rules"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// JUnit XML, the report CI systems read (GitHub Actions through a
// reporter action, GitLab, Jenkins): one testsuite, one testcase per
// script file or live run, one <failure> per failing testcase whose type
// is the first rule it broke and whose text lists every failure as
// "rule at event N: what (page)". Notes go to <system-out>.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure"`
	Skipped   *junitSkipped `xml:"skipped"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes results as one JUnit testsuite named suite; a file
// skipped is a testcase skipped, with why.
func WriteJUnit(w io.Writer, suite string, results []Result, skipped []Skipped) error {
	s := junitSuite{Name: suite, Tests: len(results) + len(skipped), Skipped: len(skipped)}
	total := 0.0
	for _, r := range results {
		c := junitCase{Name: r.Name, Classname: suite, File: r.Path, Time: "0", SystemOut: strings.Join(r.Notes, "\n")}
		if r.Path != "" {
			c.Classname = filepath.ToSlash(filepath.Dir(r.Path))
		}
		if r.Transport != nil {
			c.Classname = r.Transport.URL
			c.Time = seconds(r.Transport.Took.Seconds())
			total += r.Transport.Took.Seconds()
		}
		if !r.OK {
			s.Failures++
			c.Failure = junitFailureOf(r.Failures)
		}
		s.Cases = append(s.Cases, c)
	}
	for _, sk := range skipped {
		s.Cases = append(s.Cases, junitCase{Name: script.BaseName(sk.Path), Classname: filepath.ToSlash(filepath.Dir(sk.Path)), File: sk.Path, Time: "0",
			Skipped: &junitSkipped{Message: sk.Why}})
	}
	s.Time = seconds(total)
	doc := junitSuites{Name: suite, Tests: s.Tests, Failures: s.Failures, Time: s.Time, Suites: []junitSuite{s}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitFailureOf is a testcase's one <failure>: the first rule broken
// names it, and its text lists them all.
func junitFailureOf(failures []rules.Failure) *junitFailure {
	if len(failures) == 0 {
		return &junitFailure{Message: "failed", Type: "failed"}
	}
	lines := make([]string, len(failures))
	for i, f := range failures {
		lines[i] = f.Line()
	}
	message := failures[0].String()
	if len(failures) > 1 {
		message = fmt.Sprintf("%s (and %d more)", message, len(failures)-1)
	}
	return &junitFailure{Message: message, Type: failures[0].Rule, Text: strings.Join(lines, "\n")}
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }
