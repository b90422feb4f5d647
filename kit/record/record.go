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

	"github.com/agent-analysis/agent-analysis/kit/rules"

	"github.com/agent-analysis/agent-analysis/internal/atomicfile"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/check"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// Record asks the agent for one run and writes it to path as a script.
// With an answer, a run that ends interrupted is answered (agent.Resume)
// and the run that resumes it is kept too, as the script's one
// continuation, named after the answer, its "when" the entries sent.
// The file is written only once every stream was read to its end, and
// whole (atomicfile): a failed recording leaves what was there. The
// results are the runs' verdicts, as check -url gives them, for a
// stream the engine rejects is worth recording too. The error says why
// nothing was written.
func Record(ctx context.Context, r agent.Request, path string, answer *agent.Answer) ([]check.Result, error) {
	r.Keep = true
	name := script.BaseName(path)
	ex := agent.Run(ctx, r)
	verdicts := []check.Result{check.Live(name, ex)}
	if f := unfinished(ex); f != nil {
		return verdicts, fmt.Errorf("nothing recorded: %s: %s", f.Rule, f.Text)
	}
	var resumed *agent.Resumed
	switch {
	case answer != nil && ex.Interrupted != nil && ctx.Err() == nil:
		res := agent.Resume(ctx, r, ex, *answer)
		resumed = &res
		verdicts = append(verdicts, check.Resumed(name+"/"+answer.Name, name, res))
		if res.Refused != nil {
			return verdicts, fmt.Errorf("nothing recorded: the resume was not sent: %w", res.Refused)
		}
		if f := unfinished(res.Exchange); f != nil {
			return verdicts, fmt.Errorf("nothing recorded: the resumed run: %s: %s", f.Rule, f.Text)
		}
	case answer != nil && ex.Interrupted == nil:
		verdicts[0].Notes = append(verdicts[0].Notes, "-answer: the run did not end interrupted: there was nothing to answer")
	}
	s, err := Script(ex, r.URL)
	if err == nil && resumed != nil {
		err = s.addContinuation(answer.Name, *resumed)
	}
	if err != nil {
		return verdicts, fmt.Errorf("nothing recorded: %w", err)
	}
	data, err := s.Encode()
	if err != nil {
		return verdicts, fmt.Errorf("nothing recorded: %w", err)
	}
	// What is written must read back as the server will read it.
	if _, err := script.Parse(data, s.Name); err != nil {
		return verdicts, fmt.Errorf("nothing recorded: the script does not read back: %w", err)
	}
	if err := atomicfile.Write(path, data); err != nil {
		return verdicts, fmt.Errorf("nothing recorded: %w", err)
	}
	return verdicts, nil
}

// unfinished is the failure that kept the stream from being read to its
// end, if one did. A stream cut inside an event or a binary frame, or
// whose connection broke after its runs ended, was read to its end: a
// client sees no more.
func unfinished(ex agent.Exchange) *rules.Failure {
	for _, f := range ex.Failures {
		cut := ex.ReadToEnd && (f.Rule == rules.SSEFraming || f.Rule == rules.BinaryFraming)
		if !cut && f.Rule != rules.StreamBroken {
			return &f
		}
	}
	return nil
}

// Recording is a run as a script, and the ids it renamed, which the run
// that resumes it shares.
type Recording struct {
	script.Script
	ids *ids
}

// Script is a run as a script: the input sent and every frame, ids
// replaced, delays to the millisecond, and when it was sent
// (script.Script.RecordedAt), when the exchange says. from is the agent's
// URL, which the description names without its secrets (agent.RedactURL).
func Script(ex agent.Exchange, from string) (Recording, error) {
	if ex.Transport.Events == 0 {
		return Recording{}, errors.New("the agent sent no event")
	}
	m, err := newIDs(ex.Sent)
	if err != nil {
		return Recording{}, fmt.Errorf("the input: %v", err)
	}
	input, err := m.rewrite(ex.Sent)
	if err != nil {
		return Recording{}, fmt.Errorf("the input: %v", err)
	}
	steps, err := m.steps(ex.Frames)
	if err != nil {
		return Recording{}, err
	}
	s := script.Script{Description: "Recorded from " + agent.RedactURL(from) + ".", Input: input, Frames: steps}
	if !ex.Transport.Sent.IsZero() {
		s.RecordedAt = ex.Transport.Sent.UTC().Truncate(time.Millisecond)
	}
	return Recording{s, m}, nil
}

// addContinuation keeps the run that resumed the recorded one: its stream,
// and the entries sent as its "when", ids renamed as the recording's are.
// (A Match holds no metadata: an entry's is not kept.)
func (rec *Recording) addContinuation(name string, r agent.Resumed) error {
	if r.Exchange.Transport.Events == 0 {
		return errors.New("the resumed run: the agent sent no event")
	}
	// The resume's own ids first: its run is the next run placeholder.
	if _, err := rec.ids.rewrite(r.Exchange.Sent); err != nil {
		return fmt.Errorf("the resume: %v", err)
	}
	c := script.Continuation{Name: name}
	for _, a := range r.Answers {
		entry, err := rec.ids.rewrite(agent.EntryJSON(a))
		if err != nil {
			return fmt.Errorf("the resume: %v", err)
		}
		var m script.Match
		if err := json.Unmarshal(entry, &m); err != nil {
			return fmt.Errorf("the resume: %v", err)
		}
		c.When = append(c.When, m)
	}
	steps, err := rec.ids.steps(r.Exchange.Frames)
	if err != nil {
		return fmt.Errorf("the resumed run: %v", err)
	}
	c.Frames = steps
	rec.Continuations = append(rec.Continuations, c)
	return nil
}

// steps are frames as a script's steps, ids replaced.
func (m *ids) steps(frames []script.Frame) ([]script.Frame, error) {
	var out []script.Frame
	event := 0
	for _, f := range frames {
		step := script.Frame{After: f.After.Round(time.Millisecond), Comment: f.Comment}
		if f.Event != nil {
			var err error
			if step.Event, err = objectOf(f.Event); err == nil {
				step.Event, err = m.rewrite(step.Event)
			}
			if err != nil {
				return nil, fmt.Errorf("event %d: %v", event, err)
			}
			event++
		}
		out = append(out, step)
	}
	return out, nil
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
