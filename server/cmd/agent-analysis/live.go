package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/http/httpguts"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// ownEndpoint is the path of this project's AG-UI endpoint: a live run
// there names a scenario to play (forwardedProps.scenario), "normal" when
// -scenario says none.
const ownEndpoint = "/api/agent-analysis"

// liveFlags are what record and check -url ask a live agent with.
type liveFlags struct {
	url      string
	inputs   []string
	scenario string
	thread   string
	headers  []string // -H as given; read by header, which never shows a value
	header   http.Header
	binary   bool // -accept proto
	timeout  time.Duration
	answer   *agent.Answer // how an interrupted run is answered; nil: it is not
}

func (l *liveFlags) register(fs *flag.FlagSet, inputUsage string) {
	fs.StringVar(&l.url, "url", "", "the agent's AG-UI endpoint, http(s)://…, to POST the RunAgentInput to")
	fs.Func("input", inputUsage, func(path string) error {
		if path == "-" && slices.Contains(l.inputs, "-") {
			return errors.New("- is standard input: give it once")
		}
		l.inputs = append(l.inputs, path)
		return nil
	})
	fs.StringVar(&l.scenario, "scenario", "", "forwardedProps.scenario of the input: the script this project's server plays\n(normal when the URL is this server's "+ownEndpoint+"); other agents get none unless asked")
	fs.StringVar(&l.thread, "thread", "", "the input's threadId, to continue a thread (an interrupt's id from an earlier report may\nthen be answered with -answer FILE); default: a fresh thread each run")
	// The flag package would quote a value it refuses, secret and all:
	// -H takes anything, and readHeaders says what is wrong without it.
	fs.Func("H", "a request header, 'Name: value' as curl -H takes it (repeatable): a token, an API key;\nsent, never printed, logged or written to a report", func(h string) error {
		l.headers = append(l.headers, h)
		return nil
	})
	fs.Func("answer", "when a run ends interrupted, answer it and judge the run that resumes it too:\n"+
		"approve or reject (every interrupt asking one boolean; the others cancelled), cancel (every\n"+
		"interrupt), or a JSON file holding the resume list, [{\"interruptId\", \"status\", \"payload\", \"metadata\"}]", func(value string) error {
		a, err := agent.ParseAnswer(value)
		if err != nil {
			return err
		}
		l.answer = &a
		return nil
	})
	fs.Var(shown(func(v string) error {
		switch v {
		case "sse":
			l.binary = false
		case "proto":
			l.binary = true
		default:
			return errors.New("sse or proto")
		}
		return nil
	}), "accept", "the encoding to ask the agent for: sse (text/event-stream, the default) or proto (AG-UI's\nbinary transport, application/vnd.ag-ui.event+proto); the answer is read as its content type says")
	fs.DurationVar(&l.timeout, "timeout", agent.DefaultTimeout, "bounds each run, from the request to the stream's end: an agent that never answers,\nor never ends its stream, fails there")
}

// readHeaders reads -H, refusing what net/http would not send as given
// (it drops a Host that is no host, and fails the run on a value with a
// control character); an error never shows a header's value.
func (l *liveFlags) readHeaders() error {
	l.header = http.Header{}
	for n, h := range l.headers {
		name, value, ok := strings.Cut(h, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		switch {
		case !ok || !httpguts.ValidHeaderFieldName(name):
			return fmt.Errorf("-H (the %s): a header is Name: value, the name a token (its value is not shown)", ordinal(n+1))
		case !httpguts.ValidHeaderFieldValue(value):
			return fmt.Errorf("-H %s: a header's value holds no control character (it is not shown)", name)
		case strings.EqualFold(name, "Host") && !validHost(value):
			return fmt.Errorf("-H %s: a host, with a port or not (it is not shown)", name)
		}
		l.header.Add(name, value)
	}
	return nil
}

// validHost is a Host header's value as the client sends it: an
// internationalized name in punycode.
func validHost(host string) bool {
	ascii, err := httpguts.PunycodeHostPort(host)
	return err == nil && httpguts.ValidHostHeader(ascii)
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "first"
	case 2:
		return "second"
	case 3:
		return "third"
	}
	return fmt.Sprintf("%dth", n)
}

// liveOnly are the flags that mean something with -url alone.
var liveOnly = []string{"input", "scenario", "thread", "H", "accept", "timeout", "answer", "name", "cancel-after"}

// given is the first flag that was given of names, or "".
func given(fs *flag.FlagSet, names ...string) string {
	first := ""
	fs.Visit(func(f *flag.Flag) {
		for _, n := range names {
			if first == "" && f.Name == n {
				first = n
			}
		}
	})
	return first
}

// liveRun is one run to ask for, and what its report calls it.
type liveRun struct {
	name    string
	request agent.Request
	notes   []string // what reading its input warned of
}

// runs are the runs the flags ask for: one per -input file, named after
// it, or one of an input made from nothing, named by name, or else by
// the scenario on this project's server, or by the URL's path.
func (l *liveFlags) runs(name string) ([]liveRun, error) {
	u, err := url.Parse(l.url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("-url: %q is not an http:// or https:// URL", agent.RedactURL(l.url))
	}
	if l.timeout <= 0 {
		return nil, fmt.Errorf("-timeout must be positive, got %s", l.timeout)
	}
	if err := l.readHeaders(); err != nil {
		return nil, err
	}
	if name != "" && len(l.inputs) > 1 {
		return nil, errors.New("-name names one run: give one -input with it")
	}
	inputs := agent.Inputs{ThreadID: l.thread, Scenario: l.scenario}
	if strings.HasSuffix(u.Path, ownEndpoint) { // the demo's own input
		inputs.State = []byte(`{"services":[]}`)
		if inputs.Scenario == "" && len(l.inputs) == 0 {
			inputs.Scenario = "normal"
		}
	}
	request := func(in agui.Input) agent.Request {
		return agent.Request{URL: l.url, Input: in, Header: l.header, Binary: l.binary, Timeout: l.timeout}
	}
	if len(l.inputs) == 0 {
		in, _, err := agent.NewInput(nil, inputs)
		if err != nil {
			return nil, err
		}
		switch {
		case name != "":
		case strings.HasSuffix(u.Path, ownEndpoint):
			name = inputs.Scenario
		default:
			name = pathName(u)
		}
		return []liveRun{{name: name, request: request(in)}}, nil
	}
	named := map[string]map[string]bool{} // the files of each base name
	for _, path := range l.inputs {
		if named[script.BaseName(path)] == nil {
			named[script.BaseName(path)] = map[string]bool{}
		}
		named[script.BaseName(path)][filepath.Clean(path)] = true
	}
	var runs []liveRun
	for _, path := range l.inputs {
		in, warnings, err := readInput(path, inputs)
		if err != nil {
			return nil, fmt.Errorf("-input: %w", err)
		}
		// A report needs one name a run: a/ask.json and b/ask.json are
		// named by their paths, a file given twice by its turn too.
		runName := script.BaseName(path)
		if path == "-" {
			runName = "stdin"
		}
		if len(named[runName]) > 1 {
			runName = filepath.ToSlash(path)
		}
		if n := countNamed(runs, runName); n > 0 {
			runName = fmt.Sprintf("%s #%d", runName, n+1)
		}
		if name != "" {
			runName = name
		}
		r := liveRun{name: runName, request: request(in)}
		for _, w := range warnings {
			r.notes = append(r.notes, "input: "+w.Text)
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// pathName names a run of an agent after its endpoint's path
// ("api/copilotkit"), or its host for a URL without one.
func pathName(u *url.URL) string {
	if p := strings.Trim(u.Path, "/"); p != "" {
		return p
	}
	return u.Host
}

// countNamed is how many runs already bear name, or name #N.
func countNamed(runs []liveRun, name string) int {
	n := 0
	for _, r := range runs {
		if r.name == name || strings.HasPrefix(r.name, name+" #") {
			n++
		}
	}
	return n
}

// shown is flag.Func whose value shows as it was given, as the answer
// hint repeats a command's flags (flag.Func's shows as "").
func shown(set func(string) error) flag.Value { return &shownValue{set: set} }

type shownValue struct {
	given string
	set   func(string) error
}

func (v *shownValue) String() string { return v.given }

func (v *shownValue) Set(s string) error {
	if err := v.set(s); err != nil {
		return err
	}
	v.given = s
	return nil
}

// parseStop reads -cancel-after: a number of events, or a duration.
func parseStop(value string) (*agent.Stop, error) {
	if n, err := strconv.Atoi(value); err == nil {
		if n < 0 {
			return nil, errors.New("a number of events is 0 or more")
		}
		return &agent.Stop{Events: n}, nil
	}
	d, err := time.ParseDuration(value)
	if err != nil || d <= 0 {
		return nil, errors.New("a number of events (3) or a duration (500ms)")
	}
	return &agent.Stop{After: d}, nil
}

// stdin is where -input - reads from.
var stdin io.Reader = os.Stdin

// readInput reads an -input file, or standard input for "-": what the
// inspector's check commands pipe in.
func readInput(path string, inputs agent.Inputs) (agui.Input, []agui.Warning, error) {
	if path != "-" {
		return agent.ReadInputFile(path, inputs)
	}
	data, err := io.ReadAll(io.LimitReader(stdin, script.MaxBytes+1))
	switch {
	case err != nil:
		return agui.Input{}, nil, fmt.Errorf("standard input: %w", err)
	case len(data) > script.MaxBytes:
		return agui.Input{}, nil, fmt.Errorf("standard input: over the %d MiB a run input may be", script.MaxBytes>>20)
	}
	return agent.ReadInputData("standard input", data, inputs)
}
