// Package record turns a run of a live agent into a script that `serve
// -fixtures` replays: the input it was asked with, every event and SSE
// comment with the delay it arrived after, and the agent's generated ids
// replaced by stable placeholders (ids.go). The requested run's ids are
// the script's input ids, so a replay answers any request under that
// request's own ids (script.Script.ForRequest).
package record

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/agent-analysis/agent-analysis/agent"
	"github.com/agent-analysis/agent-analysis/check"
	"github.com/agent-analysis/agent-analysis/internal/atomicfile"
	"github.com/agent-analysis/agent-analysis/script"
)

// Record asks the agent for one run and writes it to path as a script.
// The file is written only once the stream was read to its end, and whole
// (atomicfile): a failed recording leaves what was there; the
// result is the run's verdict, as check -url gives it, for a stream the
// engine rejects is worth recording too. The error says why nothing was
// written.
func Record(ctx context.Context, r agent.Request, path string) (check.Result, error) {
	r.Keep = true
	ex := agent.Run(ctx, r)
	verdict := check.Live(script.BaseName(path), ex)
	if f := unfinished(ex); f != nil {
		return verdict, fmt.Errorf("nothing recorded: %s: %s", f.Check, f.Text)
	}
	s, err := Script(ex, r.URL)
	if err != nil {
		return verdict, fmt.Errorf("nothing recorded: %w", err)
	}
	data, err := s.Encode()
	if err != nil {
		return verdict, fmt.Errorf("nothing recorded: %w", err)
	}
	// What is written must read back as the server will read it.
	if _, err := script.Parse(data, s.Name); err != nil {
		return verdict, fmt.Errorf("nothing recorded: the script does not read back: %w", err)
	}
	if err := atomicfile.Write(path, data); err != nil {
		return verdict, fmt.Errorf("nothing recorded: %w", err)
	}
	return verdict, nil
}

// unfinished is the failure that kept the stream from being read to its
// end, if one did. A stream cut inside an event, or whose connection broke
// after its runs ended, was read to its end: a client sees no more.
func unfinished(ex agent.Exchange) *agent.Finding {
	for _, f := range ex.Failures {
		if f.Check != agent.SSEFraming && f.Check != agent.StreamBroken {
			return &f
		}
	}
	return nil
}

// Script is a run as a script: the input sent and every frame, ids
// replaced, delays to the millisecond. from is the agent's URL, which the
// description names without its secrets (agent.RedactURL).
func Script(ex agent.Exchange, from string) (script.Script, error) {
	if ex.Transport.Events == 0 {
		return script.Script{}, errors.New("the agent sent no event")
	}
	m, err := newIDs(ex.Sent)
	if err != nil {
		return script.Script{}, fmt.Errorf("the input: %v", err)
	}
	input, err := m.rewrite(ex.Sent)
	if err != nil {
		return script.Script{}, fmt.Errorf("the input: %v", err)
	}
	s := script.Script{Description: "Recorded from " + agent.RedactURL(from) + ".", Input: input}
	event := 0
	for _, f := range ex.Frames {
		step := script.Step{After: f.After.Round(time.Millisecond), Comment: f.Comment}
		if f.Event != nil {
			if step.Event, err = objectOf(f.Event); err == nil {
				step.Event, err = m.rewrite(step.Event)
			}
			if err != nil {
				return script.Script{}, fmt.Errorf("event %d: %v", event, err)
			}
			event++
		}
		s.Steps = append(s.Steps, step)
	}
	return s, nil
}

// objectOf is an event's data as a script holds it: a JSON object, compact.
func objectOf(data []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil || !bytes.HasPrefix(b.Bytes(), []byte("{")) {
		shown := data
		if len(shown) > 60 {
			shown = append(slices.Clip(shown[:60]), "…"...)
		}
		return nil, fmt.Errorf("%q is not a JSON object, and a script holds events as objects", shown)
	}
	return b.Bytes(), nil
}
