package main

import (
	"errors"
	"flag"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// liveFlags are what record and check -url ask a live agent with.
type liveFlags struct {
	url      string
	inputs   []string
	scenario string
	timeout  time.Duration
	answer   *agent.Answer // how an interrupted run is answered; nil: it is not
}

func (l *liveFlags) register(flags *flag.FlagSet, inputUsage string) {
	flags.StringVar(&l.url, "url", "", "the agent's AG-UI endpoint, http(s)://…, to POST the RunAgentInput to")
	flags.Func("input", inputUsage, func(path string) error { l.inputs = append(l.inputs, path); return nil })
	flags.StringVar(&l.scenario, "scenario", "normal", "without -input: forwardedProps.scenario of the demo's input\n(this server's scenario, fault or file script to play; other agents may ignore it)")
	flags.Func("answer", "when a run ends interrupted, answer it and judge the run that resumes it too:\n"+
		"approve or reject (every interrupt asking one boolean; the others cancelled), cancel (every\n"+
		"interrupt), or a JSON file holding the resume list, [{\"interruptId\", \"status\", \"payload\"}]", func(value string) error {
		a, err := agent.ParseAnswer(value)
		if err != nil {
			return err
		}
		l.answer = &a
		return nil
	})
	flags.DurationVar(&l.timeout, "timeout", agent.DefaultTimeout, "bounds each run, from the request to the stream's end: an agent that never answers,\nor never ends its stream, fails there")
}

// given is the first of the flags that only mean something with -url
// that was given, or "".
func (l *liveFlags) given(flags *flag.FlagSet) string {
	name := ""
	flags.Visit(func(f *flag.Flag) {
		if name == "" && (f.Name == "input" || f.Name == "scenario" || f.Name == "timeout" || f.Name == "answer") {
			name = f.Name
		}
	})
	return name
}

// liveRun is one run to ask for, and what its report calls it.
type liveRun struct {
	name    string
	request agent.Request
	notes   []string // what reading its input warned of
}

// runs are the runs the flags ask for: one per -input file, named after
// it, or the demo's input, named after its scenario.
func (l *liveFlags) runs(flags *flag.FlagSet) ([]liveRun, error) {
	u, err := url.Parse(l.url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("-url: %q is not an http:// or https:// URL", l.url)
	}
	if l.timeout <= 0 {
		return nil, fmt.Errorf("-timeout must be positive, got %s", l.timeout)
	}
	scenarioSet := false
	flags.Visit(func(f *flag.Flag) { scenarioSet = scenarioSet || f.Name == "scenario" })
	if scenarioSet && len(l.inputs) > 0 {
		return nil, errors.New("-scenario sets the demo's input: it goes without -input")
	}
	request := func(in agui.Input) agent.Request {
		return agent.Request{URL: l.url, Input: in, Timeout: l.timeout}
	}
	if len(l.inputs) == 0 {
		in, err := agent.DemoInput(l.scenario)
		if err != nil {
			return nil, fmt.Errorf("-scenario: %w", err)
		}
		return []liveRun{{name: l.scenario, request: request(in)}}, nil
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
		in, warnings, err := agent.ReadInputFile(path)
		if err != nil {
			return nil, fmt.Errorf("-input: %w", err)
		}
		// A report needs one name a run: a/ask.json and b/ask.json are
		// named by their paths, a file given twice by its turn too.
		name := script.BaseName(path)
		if len(named[name]) > 1 {
			name = filepath.ToSlash(path)
		}
		if n := countNamed(runs, name); n > 0 {
			name = fmt.Sprintf("%s #%d", name, n+1)
		}
		r := liveRun{name: name, request: request(in)}
		for _, w := range warnings {
			r.notes = append(r.notes, "input: "+w.Text)
		}
		runs = append(runs, r)
	}
	return runs, nil
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
