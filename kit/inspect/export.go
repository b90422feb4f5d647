package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"strings"
	"time"

	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// The three ways a run leaves the inspector: as a script (the kit's own
// format, which check, serve -fixtures and the inspector read), as a
// capture (SSE, as curl -N writes it), and as the check command that asks
// the agent for the same run again.

// Script is a run's kept events as a script, with the input it was sent,
// the waits between its frames and, for a live run, when it was sent. It fails for a run whose events are
// not all JSON: a capture holds those.
func (s *Store) Script(id string) ([]byte, bool, error) {
	d, events, ok := s.snapshot(id)
	if !ok {
		return nil, false, nil
	}
	sc := script.Script{Name: d.Name, Frames: frames(events)}
	size := len(d.Input)
	for _, f := range sc.Frames {
		size += script.FrameSize(f)
	}
	if size > script.MaxBytes { // deep JSON grows as a script indents it
		return nil, true, overScript(size)
	}
	if d.Source == "live" { // its frames' times are measured from the request's
		sc.RecordedAt = d.Started.UTC().Truncate(time.Millisecond)
	}
	if json.Valid([]byte(d.Input)) {
		sc.Input = json.RawMessage(d.Input)
	}
	data, err := sc.Encode()
	if err != nil {
		return nil, true, fmt.Errorf("the run cannot be written as a script (%v): copy it as a capture", err)
	}
	if len(data) > script.MaxBytes { // the input, once indented
		return nil, true, overScript(len(data))
	}
	return data, true, nil
}

func overScript(size int) error {
	return fmt.Errorf("the run's script would be %d MiB, over the %d MiB the kit reads a script in: copy it as a capture",
		size>>20, script.MaxBytes>>20)
}

// Capture is a run's kept events as SSE: a data line for each line of an
// event, a comment as a comment.
func (s *Store) Capture(id string) ([]byte, bool) {
	_, events, ok := s.snapshot(id)
	if !ok {
		return nil, false
	}
	var b []byte
	for _, ev := range events {
		if ev.Index < 0 {
			b = append(append(append(b, ": "...), ev.Comment...), "\n\n"...)
			continue
		}
		for line := range strings.Lines(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(ev.JSON)) {
			b = append(append(b, "data: "...), strings.TrimSuffix(line, "\n")...)
			b = append(b, '\n')
		}
		b = append(b, '\n')
	}
	return b, true
}

// Command is the shell command that judges the run again: check of the
// file it was read from, or check -url asking the agent for the same run
// (the same input; each header the client sent beyond the usual ones named,
// its value left to an environment variable, for the inspector never sees
// values).
func (s *Store) Command(id string) (string, bool) {
	d, _, ok := s.snapshot(id)
	if !ok {
		return "", false
	}
	if d.Source != "live" {
		return "agent-analysis check " + shellQuote(d.Source), true
	}
	var b strings.Builder
	b.WriteString("agent-analysis check -url " + shellQuote(d.URL))
	for _, name := range d.Headers {
		if !usualHeader(name) {
			b.WriteString(" -H " + headerArg(name))
		}
	}
	if t := d.Transport; t != nil {
		if mt, _, _ := mime.ParseMediaType(t.ContentType); mt == proto.MediaType {
			b.WriteString(" -accept proto")
		}
	}
	input := []byte(d.Input)
	var compact bytes.Buffer
	if json.Compact(&compact, input) == nil {
		input = compact.Bytes()
	}
	end := "RUN_AGENT_INPUT"
	for bytes.Contains(input, []byte(end)) {
		end += "_"
	}
	fmt.Fprintf(&b, " -input - <<'%s'\n%s\n%s\n", end, input, end)
	return b.String(), true
}

// usualHeader reports whether a header is one any client sends, which a
// command need not carry.
func usualHeader(name string) bool {
	switch strings.ToLower(name) {
	case "accept", "accept-encoding", "accept-language", "connection", "content-length", "content-type",
		"user-agent", "origin", "referer", "cache-control", "pragma", "priority", "dnt":
		return true
	}
	return strings.HasPrefix(strings.ToLower(name), "sec-")
}

// headerArg is -H's argument for a header whose value the command leaves
// to an environment variable named after it: "X-Api-Key: $X_API_KEY". A
// name is the client's, and a header name may hold characters a shell
// acts on (a backtick, a "$"): one that is not letters, digits and "-" is
// quoted whole, and the variable's name keeps only letters, digits and
// "_".
func headerArg(name string) string {
	env := []byte(strings.ToUpper(name))
	plain := true
	for i, c := range env {
		switch {
		case c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		case c == '-':
			env[i] = '_'
		default:
			env[i], plain = '_', false
		}
	}
	if len(env) > 0 && env[0] >= '0' && env[0] <= '9' {
		env = append([]byte{'_'}, env...)
	}
	if plain {
		return `"` + name + `: $` + string(env) + `"`
	}
	return shellQuote(name+": ") + `"$` + string(env) + `"`
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// snapshot is a run's detail and kept events.
func (s *Store) snapshot(id string) (runs.Detail, []runs.Event, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok {
		return runs.Detail{}, nil, false
	}
	return e.detail, e.events, true // events are only appended to
}

// frames are kept events as script frames, each after its wait.
func frames(events []runs.Event) []script.Frame {
	out := make([]script.Frame, 0, len(events))
	var last float64
	for _, ev := range events {
		f := script.Frame{After: time.Duration((ev.AtMs - last) * float64(time.Millisecond)), Comment: ev.Comment}
		f.After = max(f.After, 0)
		last = ev.AtMs
		if ev.Index >= 0 {
			f.Event, f.Type = json.RawMessage(ev.JSON), ev.Type
		}
		out = append(out, f)
	}
	return out
}
