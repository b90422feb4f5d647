package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
)

// report is what check -json prints: the parts the lane reads.
type report struct {
	Results []struct {
		Name     string `json:"name"`
		OK       bool   `json:"ok"`
		Failures []struct {
			Rule string `json:"rule"`
			Text string `json:"text"`
		} `json:"failures"`
		Interrupted string   `json:"interrupted"`
		Stopped     string   `json:"stopped"`
		Errored     string   `json:"errored"`
		Notes       []string `json:"notes"`
	} `json:"results"`
}

// outcome is what a case got: a verdict per run, and what to say of it.
type outcome struct {
	Verdicts []string
	Detail   string // the kit's words for the first failure, or what the lane saw
}

// lane is what every case of one agent runs with.
type lane struct {
	dir   string // interop/: the table's folder, where check runs
	bin   string // agent-analysis, an absolute path
	tmp   string // inputs the lane writes
	url   string // the agent's AG-UI endpoint
	proxy *proxied
}

func (l *lane) run(ctx context.Context, c Case) (outcome, error) {
	switch c.How {
	case "check":
		return l.check(ctx, c.Args)
	default:
		return l.throughProxy(ctx, c)
	}
}

// check runs agent-analysis check -json -url against the agent, with the
// case's flags, and reads a verdict per run from its report.
func (l *lane) check(ctx context.Context, args []string) (outcome, error) {
	cmd := exec.CommandContext(ctx, l.bin, append([]string{"check", "-json", "-url", l.url}, args...)...)
	cmd.Dir = l.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return outcome{}, fmt.Errorf("check: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var r report
	if err := json.Unmarshal(out, &r); err != nil {
		return outcome{}, fmt.Errorf("check -json: %v", err)
	}
	var o outcome
	for _, res := range r.Results {
		var v string
		switch {
		case res.OK && res.Interrupted != "":
			v = "interrupted"
		case res.OK && res.Stopped != "":
			v = "stopped"
		case res.OK && res.Errored != "":
			v = "errored"
		case res.OK:
			v = "ok"
		default:
			var rules []string
			for _, f := range res.Failures {
				if !slices.Contains(rules, f.Rule) {
					rules = append(rules, f.Rule)
				}
			}
			v = strings.Join(rules, "+")
			if o.Detail == "" && len(res.Failures) > 0 {
				o.Detail = res.Failures[0].Text
			}
		}
		// A warning on a legal run is a verdict too: the table must name
		// it, so that a false alarm cannot pass unseen.
		for _, n := range res.Notes {
			if rule, ok := strings.CutPrefix(n, "warning ("); ok {
				rule, _, _ = strings.Cut(rule, ")")
				v += "+warn:" + rule
				if o.Detail == "" {
					o.Detail = n
				}
			}
		}
		o.Verdicts = append(o.Verdicts, v)
	}
	return o, nil
}
