package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/check"
	"github.com/agent-analysis/agent-analysis/kit/script"
	"github.com/agent-analysis/agent-analysis/server/servertest"
)

// renamed are the ids a recording of each built-in script gives a
// placeholder, besides the request's own: every other byte replays as
// the original sent it.
var renamed = map[string]map[string]string{
	"non-state-events":       {"m1": "msg-1", "t1": "call-1"},
	"open-message-at-finish": {"m1": "msg-1"},
	"replayed-history":       {"run-0": "run-2"},
	"error-then-new-run":     {"run-0": "run-2"},
	"two-runs":               {"run-after-the-request": "run-2"},
	"nested-run-started":     {"run-nested": "run-2"},
	"finished-wrong-run":     {"019cd777-880c-7152-b22f-7538ad95378d": "run-2"},
	"other-thread":           {"thread-of-another-tab": "thread-2"},
	"outcome-interrupt":      {"approve-budget@t": "interrupt-1"}, // a script that continues serves its interrupts bound to the thread
	"duplicate-interrupt-id": {"approve-budget": "interrupt-1"},
	"approval":               {"call-rollback": "call-1", "msg-proposal": "msg-1", "rollback-api@t": "interrupt-1"},
	"expired-interrupt":      {"call-rollback": "call-1", "msg-proposal": "msg-1", "rollback-api@t": "interrupt-1"},
	"resume-unanswered-call": {"call-rollback": "call-1", "msg-proposal": "msg-1", "rollback-api@t": "interrupt-1"},
	"resume-unknown-id":      {"call-rollback": "call-1", "msg-proposal": "msg-1", "rollback-api@t": "interrupt-1"},
}

func body(t *testing.T, base, scenario string) string {
	t.Helper()
	resp := post(t, base, scenario)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%s: %d %v", scenario, resp.StatusCode, err)
	}
	return string(b)
}

func failedRules(r check.Result) []string {
	var out []string
	for _, f := range r.Failures {
		out = append(out, f.Rule)
	}
	return out
}

// Every built-in script, recorded from this server and replayed by
// another started with -fixtures, streams the same bytes (under the
// request's ids), and check judges the replay as it judged the original.
func TestARecordingReplaysByteForByte(t *testing.T) {
	api := servertest.Ours(t)
	dir := t.TempDir()
	for _, name := range fixtures.Names() {
		f, _ := fixtures.Lookup(name)
		var out bytes.Buffer
		err := run(t.Context(), []string{"record", "-url", api, "-scenario", name, "-o", filepath.Join(dir, "rec-"+name+".json")}, &out, io.Discard)
		if f.Group == fixtures.Fatal {
			if !errors.Is(err, errFailed) || !strings.Contains(out.String(), "FAIL the stream: ") {
				t.Errorf("%s: %v\n%s", name, err, out.String())
			}
		} else if err != nil || !strings.HasPrefix(out.String(), "recorded "+filepath.Join(dir, "rec-"+name+".json")+": ") {
			t.Errorf("%s: %v\n%s", name, err, out.String())
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(fixtures.Names()) {
		t.Fatalf("%d files in the directory, temporary ones left?", len(entries))
	}

	replay := start(t, "-web", webWithWasm(t), "-no-delay", "-fixtures", dir)
	for _, name := range fixtures.Names() {
		t.Run(name, func(t *testing.T) {
			want := body(t, strings.TrimSuffix(api, "/api/agent-analysis"), name)
			for from, to := range renamed[name] {
				want = strings.ReplaceAll(want, strconv.Quote(from), strconv.Quote(to))
			}
			if got := body(t, replay.base, "rec-"+name); got != want {
				t.Errorf("the replay differs:\n%s\nthe original, ids renamed:\n%s", got, want)
			}
			original := check.Live(name, exchange(t, api, name))
			replayed := check.Live(name, exchange(t, replay.base+"/api/agent-analysis", "rec-"+name))
			if !slices.Equal(failedRules(original), failedRules(replayed)) || original.OK != replayed.OK {
				t.Errorf("check judges the original %+v and the replay %+v", original.Failures, replayed.Failures)
			}
			file := check.File(filepath.Join(dir, "rec-"+name+".json"), false)[0]
			if !slices.Equal(failedRules(file), failedRules(original)) {
				t.Errorf("check judges the file %+v, the live run %+v", file.Failures, original.Failures)
			}
		})
	}

	// The replaying server offers the recordings in the file group.
	var out bytes.Buffer
	if err := run(t.Context(), []string{"check", "-url", replay.base + "/api/agent-analysis", "-scenario", "rec-normal"}, &out, io.Discard); err != nil {
		t.Errorf("check -url of the replay: %v\n%s", err, out.String())
	}
}

func exchange(t *testing.T, url, scenario string) agent.Exchange {
	t.Helper()
	in, _, err := agent.NewInput(nil, agent.Inputs{State: []byte(`{"services":[]}`), Scenario: scenario})
	if err != nil {
		t.Fatal(err)
	}
	return agent.Run(t.Context(), agent.Request{URL: url, Input: in})
}

// The recording is the shared format, ids normalised, the requested run's
// the input's; with -input, the file's members are sent and kept.
func TestARecordingIsTheSharedFormat(t *testing.T) {
	api := servertest.Ours(t)
	dir := t.TempDir()
	input := filepath.Join(dir, "input.json")
	os.WriteFile(input, []byte(`{"state":{"services":[]},"forwardedProps":{"scenario":"keep-alive-comments"},"extra":1}`), 0o644)
	out := filepath.Join(dir, "kept.json")
	var stdout bytes.Buffer
	if err := run(t.Context(), []string{"record", "-url", api, "-input", input, "-o", out}, &stdout, io.Discard); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	if !strings.Contains(stdout.String(), "note: input: removed /extra from the run input") {
		t.Errorf("the input's warning is not shown:\n%s", stdout.String())
	}
	s, err := script.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if th, r := s.Requested(); th != "thread-1" || r != "run-1" || s.Name != "kept" || s.Description != "Recorded from "+api+"." {
		t.Errorf("%s %s %+v", th, r, s)
	}
	if got := string(s.Input); !strings.Contains(got, `"state": {`) || !strings.Contains(got, `"threadId": "thread-1"`) || strings.Contains(got, "extra") {
		t.Errorf("input %s", got)
	}
	var kinds []string
	for _, st := range s.Frames {
		if st.Event == nil {
			kinds = append(kinds, "comment")
		} else {
			kinds = append(kinds, st.Type)
		}
		if st.After%time.Millisecond != 0 {
			t.Errorf("a delay of %v: not whole milliseconds", st.After)
		}
	}
	if strings.Join(kinds, " ") != "RUN_STARTED comment STATE_SNAPSHOT comment comment STATE_DELTA comment RUN_FINISHED" {
		t.Errorf("steps %s", kinds)
	}
	raw, _ := os.ReadFile(out)
	if !strings.Contains(string(raw), "\n  \"stream\": [\n    {\n      \"afterMs\": ") || !strings.Contains(string(raw), `"comment": "keep-alive"`) {
		t.Errorf("not the shared format:\n%s", raw)
	}
	if info, _ := os.Stat(out); info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", info.Mode())
	}
}

// An upstream that never answers, answers HTML, streams forever or
// refuses gets a clear error, a non-zero exit, and nothing written: what
// the file held stays.
func TestRecordWritesNothingFromABadUpstream(t *testing.T) {
	silent := servertest.Upstream(t, servertest.NeverAnswers)
	html := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><title>Gateway</title>")
	})
	forever := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so that net/http notices the client go
		w.Header().Set("Content-Type", "text/event-stream")
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			fmt.Fprintf(w, "data: {\"type\":\"CUSTOM\",\"name\":\"tick\",\"value\":%d}\n\n", i)
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
			}
		}
	})
	dir := t.TempDir()
	out := filepath.Join(dir, "kept.json")
	os.WriteFile(out, []byte("what was there"), 0o644)
	tests := []struct {
		name string
		args []string
		says string
	}{
		{"never answers", []string{"-url", silent, "-timeout", "100ms"}, "nothing recorded: timeout: no answer within 100ms"},
		{"answers HTML", []string{"-url", html}, `nothing recorded: content-type: the answer is "text/html; charset=utf-8", not text/event-stream or application/vnd.ag-ui.event+proto: "<!doctype html><title>Gateway</title>"`},
		// Cut however far it got: its headers, or its first event, may come
		// after the timeout on a busy machine (package agent words each).
		{"streams forever", []string{"-url", forever, "-timeout", "150ms"}, "nothing recorded: timeout: "},
		{"an unknown scenario", []string{"-url", servertest.Ours(t), "-scenario", "nope"}, "nothing recorded: http-status: the agent answered 422 Unprocessable Entity, not 2xx: Unknown scenario"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(t.Context(), append([]string{"record", "-o", out}, tt.args...), io.Discard, io.Discard)
			if err == nil || errors.Is(err, errFailed) || !strings.HasPrefix(err.Error(), tt.says) {
				t.Errorf("%v\nwant %q", err, tt.says)
			}
			if b, _ := os.ReadFile(out); string(b) != "what was there" {
				t.Errorf("the file changed: %q", b)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("%d files: a temporary one was left", len(entries))
			}
		})
	}
}

// record checks it can write -o before it asks the agent for anything.
func TestRecordChecksItsOutputFirst(t *testing.T) {
	var asked atomic.Int32
	url := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) { asked.Add(1) })
	dir := t.TempDir()
	file := filepath.Join(dir, "file.json")
	os.WriteFile(file, []byte("{}"), 0o644)
	os.Mkdir(filepath.Join(dir, "folder.json"), 0o755)
	for path, says := range map[string]string{
		filepath.Join(dir, "no-such-dir", "x.json"): "the folder " + filepath.Join(dir, "no-such-dir") + " does not exist",
		filepath.Join(file, "x.json"):               file + " is not a folder",
		filepath.Join(dir, "folder.json"):           filepath.Join(dir, "folder.json") + " is a folder",
	} {
		var stderr bytes.Buffer
		err := run(t.Context(), []string{"record", "-url", url, "-o", path}, io.Discard, &stderr)
		if err == nil || err.Error() != "invalid value "+strconv.Quote(path)+" for flag -o: "+says || exitCode(err, &stderr) != 2 {
			t.Errorf("%v\nwant %q", err, says)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 || asked.Load() != 0 {
		t.Errorf("%d files (a probe left?), the agent asked %d times", len(entries), asked.Load())
	}
}

func TestRecordFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{"-url", "http://x"}, "-o FILE is required"},
		{[]string{"-o", "x.json"}, `-url: "" is not an http:// or https:// URL`},
		{[]string{"-o", "x.json", "-url", "ftp://x"}, `-url: "ftp://x" is not an http:// or https:// URL`},
		{[]string{"-o", "x.json", "-url", "http://x", "-timeout", "0s"}, "-timeout must be positive"},
		{[]string{"-o", "x.json", "-url", "http://x", "-input", "a", "-input", "b"}, "one -input"},
		{[]string{"-o", "x.json", "-url", "http://x", "-input", "missing.json"}, "-input: missing.json: cannot read it: no such file"},
		{[]string{"-o", "x.json", "-url", "http://x", "stray"}, `unexpected argument "stray"`},
		{[]string{"-o", "x.txt", "-url", "http://127.0.0.1:9"}, `invalid value "x.txt" for flag -o: a script file ends in .json or .jsonl: serve -fixtures reads no other`},
		{[]string{"-o", filepath.Join("streams", "normal.jsonl"), "-url", "http://127.0.0.1:9"}, `invalid value "` + filepath.Join("streams", "normal.jsonl") + `" for flag -o: "normal" is a built-in script's name: serve -fixtures would refuse the file`},
		{[]string{"-o", "x.json", "-url", "http://127.0.0.1:9", "-timeout", "61m"}, "-timeout 1h1m0s is over an hour, the longest delay a script holds"},
	} {
		if err := run(context.Background(), append([]string{"record"}, tt.args...), io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%v: %v, want %q", tt.args, err, tt.says)
		}
	}
	var stderr bytes.Buffer
	if err := run(context.Background(), []string{"record", "-h"}, &stderr, io.Discard); err != nil || !strings.Contains(stderr.String(), "Usage: agent-analysis record") {
		t.Errorf("-h: %v %s", err, stderr.String())
	}
}

// record writes the same script from either encoding: a run recorded over
// the binary transport is the run recorded over SSE (its events' members
// in the binary schema's order, the same values), but for the delays and
// the SSE comments, which the binary transport has none of.
func TestRecordWritesTheSameScriptFromEitherEncoding(t *testing.T) {
	api := servertest.Ours(t)
	dir := t.TempDir()
	for _, name := range []string{"normal", "approval", "events-after-finish", "keep-alive-comments"} {
		paths := map[string]string{}
		for _, accept := range []string{"sse", "proto"} {
			paths[accept] = filepath.Join(dir, name+"-"+accept+".json")
			args := []string{"record", "-url", api, "-scenario", name, "-accept", accept, "-answer", "approve", "-o", paths[accept]}
			if err := run(t.Context(), args, io.Discard, io.Discard); err != nil && !errors.Is(err, errFailed) {
				t.Fatalf("%s over %s: %v", name, accept, err)
			}
		}
		sse, err1 := script.ReadFile(paths["sse"])
		bin, err2 := script.ReadFile(paths["proto"])
		if err1 != nil || err2 != nil {
			t.Fatalf("%v %v", err1, err2)
		}
		events := func(s script.Script) []string {
			var out []string
			for _, e := range append(s.Events(), continuationEvents(s)...) {
				v, _ := jsonpatch.Decode(e)
				out = append(out, string(jsonpatch.Encode(v)))
			}
			return out
		}
		// The engine's JSON values compare whatever the member order.
		a, b := events(sse), events(bin)
		if len(a) != len(b) {
			t.Fatalf("%s: %d events over SSE, %d over binary", name, len(a), len(b))
		}
		for i := range a {
			x, _ := jsonpatch.Decode([]byte(a[i]))
			y, _ := jsonpatch.Decode([]byte(b[i]))
			if !jsonpatch.Equal(x, y) {
				t.Errorf("%s event %d: %s over SSE, %s over binary", name, i+1, a[i], b[i])
			}
		}
		if string(sse.Input) != string(bin.Input) {
			t.Errorf("%s: inputs %s and %s", name, sse.Input, bin.Input)
		}
	}
}

func continuationEvents(s script.Script) [][]byte {
	var out [][]byte
	for _, c := range s.Continuations {
		for _, f := range c.Frames {
			if f.Event != nil {
				out = append(out, f.Event)
			}
		}
	}
	return out
}

// A stream cut inside its last event is recorded from either encoding,
// as far as it got: it was read to its end, and a client sees no more.
// (A frame too large to read is not: the reading stopped before the end.)
func TestRecordWritesAStreamCutInsideAnEvent(t *testing.T) {
	var started []byte
	cut := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		var in struct{ ThreadID, RunID string }
		json.NewDecoder(r.Body).Decode(&in)
		started = fmt.Appendf(nil, `{"type":"RUN_STARTED","threadId":%q,"runId":%q}`, in.ThreadID, in.RunID)
		message := []byte(`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`)
		if r.Header.Get("Accept") == "text/event-stream" {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\n\ndata: %s", started, message[:20])
			return
		}
		w.Header().Set("Content-Type", "application/vnd.ag-ui.event+proto")
		frames, _ := proto.AppendFrame(nil, started)
		next, _ := proto.AppendFrame(nil, message)
		w.Write(append(frames, next[:9]...))
	})
	dir := t.TempDir()
	for _, accept := range []string{"sse", "proto"} {
		out := filepath.Join(dir, accept+".json")
		err := run(t.Context(), []string{"record", "-url", cut, "-accept", accept, "-o", out}, io.Discard, io.Discard)
		if !errors.Is(err, errFailed) {
			t.Errorf("%s: %v, want a recording of a failing stream", accept, err)
			continue
		}
		s, err := script.ReadFile(out)
		if err != nil || len(s.Events()) != 1 {
			t.Errorf("%s: %v, %d events", accept, err, len(s.Events()))
		}
	}
}

// What record prints of the agent's words is escaped, as check's lines
// are: an interrupt's reason with a line end forges no ok line, and an
// escape moves no cursor.
func TestRecordEscapesTheAgentsWords(t *testing.T) {
	agent := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		var in struct{ ThreadID, RunID string }
		json.NewDecoder(r.Body).Decode(&in)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":%q,\"runId\":%q}\n\n", in.ThreadID, in.RunID)
		fmt.Fprintf(w, "data: {\"type\":\"RUN_FINISHED\",\"threadId\":%q,\"runId\":%q,\"outcome\":{\"type\":\"interrupt\",\"interrupts\":[{\"id\":\"i1\",\"reason\":\"x\\nok   forged\\u001b[2J\"}]}}\n\n", in.ThreadID, in.RunID)
	})
	var out strings.Builder
	if err := run(t.Context(), []string{"record", "-url", agent, "-o", filepath.Join(t.TempDir(), "r.json")}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "\nok   forged") || strings.Contains(out.String(), "\x1b") || !strings.Contains(out.String(), `x\nok   forged\x1b[2J`) {
		t.Errorf("record printed:\n%s", out.String())
	}
}

// A recording is bounded as its script is written, not as its bytes
// came: a stream of empty comments, two bytes each, some fifty in a
// script, stops as too long at the script's bound.
func TestRecordBoundsAStreamAsItsScript(t *testing.T) {
	agent := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		var in struct{ ThreadID, RunID string }
		json.NewDecoder(r.Body).Decode(&in)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":%q,\"runId\":%q}\n\n", in.ThreadID, in.RunID)
		w.Write(bytes.Repeat([]byte(":\n"), 400_000))
		fmt.Fprintf(w, "\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":%q,\"runId\":%q}\n\n", in.ThreadID, in.RunID)
	})
	err := run(t.Context(), []string{"record", "-url", agent, "-o", filepath.Join(t.TempDir(), "r.json")}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "too-long: the stream is over 16 MiB as a script") {
		t.Errorf("%v", err)
	}
}
