package agent

import (
	"encoding/binary"
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/kit/rules"
	"github.com/agent-analysis/agent-analysis/server/servertest"
)

// verdict is what a test compares of two exchanges: the rules broken and
// warned of, where, and how the stream ended.
func verdict(ex Exchange) string {
	v := fmt.Sprintf("failures %v", checks(ex))
	if ex.Violation != nil {
		v += fmt.Sprintf(" · %s at %d", ex.Violation.Rule, ex.Violation.Index)
	}
	var warned []string
	for _, w := range ex.Warnings {
		warned = append(warned, fmt.Sprintf("%s@%d", w.Rule, w.Index))
	}
	return v + fmt.Sprintf(" · truncated %v · warned %v · %d events · interrupted %v", ex.Truncated != "", warned, ex.Transport.Events, ex.Interrupted != nil)
}

// One engine: every built-in script the binary transport can carry gets
// the same verdict from this project's server in both encodings, rule
// for rule, warning for warning, event for event.
func TestEveryScriptGetsOneVerdictInBothEncodings(t *testing.T) {
	url := servertest.Ours(t)
	for _, f := range fixtures.All() {
		text := Run(t.Context(), Request{URL: url, Input: demo(t, f.Name)})
		bin := Run(t.Context(), Request{URL: url, Input: demo(t, f.Name), Binary: true})
		if bin.Transport.Status == http.StatusNotAcceptable {
			continue // a script the binary transport cannot carry (server tests list them)
		}
		if !bin.Transport.Binary() {
			t.Errorf("%s: asked for binary, got %q", f.Name, bin.Transport.ContentType)
		}
		if verdict(bin) != verdict(text) {
			t.Errorf("%s:\nbinary %s\n   SSE %s", f.Name, verdict(bin), verdict(text))
		}
	}
}

// frameOf is a binary frame around msg, its length as given.
func frameOf(length uint32, msg []byte) []byte {
	return append(binary.BigEndian.AppendUint32(nil, length), msg...)
}

// framed is events as binary frames.
func framed(t *testing.T, events ...string) []byte {
	t.Helper()
	var b []byte
	for _, e := range events {
		var err error
		if b, err = proto.AppendFrame(b, []byte(e)); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// swollen is a frame within proto.MaxFrameBytes whose JSON is many times
// it: RUN_STARTED whose input lists some five million empty resume
// entries, two bytes each on the wire and some thirty in JSON.
func swollen() []byte {
	var input []byte
	for len(input) < proto.MaxFrameBytes-64 {
		input = protowire.AppendTag(input, 9, protowire.BytesType) // RunAgentInput.resume
		input = protowire.AppendVarint(input, 0)
	}
	ev := protowire.AppendTag(nil, 1, protowire.BytesType) // base_event: RUN_STARTED
	ev = protowire.AppendBytes(ev, []byte{0x08, 11})
	ev = protowire.AppendTag(ev, 5, protowire.BytesType) // input
	ev = protowire.AppendBytes(ev, input)
	msg := protowire.AppendTag(nil, 12, protowire.BytesType) // the run_started arm
	msg = protowire.AppendBytes(msg, ev)
	return frameOf(uint32(len(msg)), msg)
}

// A capture's frame whose JSON passes the engine's bound stops the
// reading there, as an SSE event over it does, without building it whole.
func TestACaptureStopsAtAnEventOverTheBound(t *testing.T) {
	started := framed(t, `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`)
	stream := slices.Concat(started, swollen(), swollen())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c := ReadCapture(stream)
	runtime.ReadMemStats(&after)
	if len(c.Frames) != 1 || len(c.Failures) != 1 || c.Failures[0].Rule != "limit" {
		t.Errorf("%d frames, failures %+v", len(c.Frames), c.Failures)
	}
	if held := after.TotalAlloc - before.TotalAlloc; held > 64<<20 {
		t.Errorf("%d MiB allocated reading %d MiB", held>>20, len(stream)>>20)
	}
}

// binaryAnswer answers with body as the binary transport (or as ct).
func binaryAnswer(ct string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ct)
		w.Write(body)
	}
}

// A frame that does not decode keeps its place among the frames kept, as
// an SSE event that is not JSON does: record refuses both alike, and the
// inspector and -cancel-after count it.
func TestAFrameThatDoesNotDecodeIsAFrame(t *testing.T) {
	in := demo(t, "normal")
	start := framed(t, fmt.Sprintf(`{"type":"RUN_STARTED","threadId":%q,"runId":%q}`, in.ThreadID, in.RunID))
	finish := framed(t, fmt.Sprintf(`{"type":"RUN_FINISHED","threadId":%q,"runId":%q}`, in.ThreadID, in.RunID))
	body := slices.Concat(start, frameOf(3, []byte{0xff, 0xff, 0xff}), finish)
	ex := Run(t.Context(), Request{URL: servertest.Upstream(t, binaryAnswer(proto.MediaType, body)), Input: in, Binary: true, Keep: true})
	if ex.Transport.Events != 3 || len(ex.Frames) != 3 || !strings.HasPrefix(string(ex.Frames[1].Event), "a binary frame that does not decode (frame 2") {
		t.Errorf("%d events, frames %+v", ex.Transport.Events, ex.Frames)
	}
	stopped := Run(t.Context(), Request{URL: servertest.Upstream(t, binaryAnswer(proto.MediaType, body)), Input: in, Binary: true, Stop: &Stop{Events: 2}})
	if stopped.Stopped == nil || stopped.Transport.Events != 2 {
		t.Errorf("stopped at 2 events: %+v, %d events", stopped.Stopped, stopped.Transport.Events)
	}
}

// Bad bytes in the binary transport: each a verdict with its rule and
// its place, the stream judged as far as it can be.
func TestBadBinaryBytes(t *testing.T) {
	in := demo(t, "normal")
	started := fmt.Sprintf(`{"type":"RUN_STARTED","threadId":%q,"runId":%q}`, in.ThreadID, in.RunID)
	finished := fmt.Sprintf(`{"type":"RUN_FINISHED","threadId":%q,"runId":%q}`, in.ThreadID, in.RunID)
	start, finish := framed(t, started), framed(t, finished)
	runStartedBad := append([]byte{0x62, 0x0b, 0x0a, 0x02, 0x08, 0x0b, 0x12, 0x01, 0xff}, []byte{0x1a, 0x01, 'r'}...) // run_started whose thread_id is "\xff"
	for _, tt := range []struct {
		name, ct string
		body     []byte
		rules    []string // failures, in order
		says     string   // in the first
		warned   string   // a warning's rule, or ""
	}{
		{"whole", proto.MediaType, slices.Concat(start, finish), nil, "", ""},
		{"a length past the limit", proto.MediaType, slices.Concat(start, frameOf(proto.MaxFrameBytes, nil)),
			[]string{rules.BinaryFraming}, fmt.Sprintf("frame 2 (byte %d): proto: frame too large: 10485764 bytes with its length, over the limit of 10485760, more than a client reads", len(start)), ""},
		{"a frame cut short", proto.MediaType, slices.Concat(start, frameOf(40, []byte("short"))),
			[]string{rules.BinaryFraming, rules.Truncated}, fmt.Sprintf("the stream ended inside frame 2 (byte %d): proto: stream ends inside a frame: 9 of its 44 bytes, on which @ag-ui/client 1.0 fails the run", len(start)+9), ""},
		{"an event whose JSON passes the engine's bound", proto.MediaType, slices.Concat(start, swollen(), finish),
			[]string{"limit"}, "an event is over the engine's 1 MiB bound: the stream was not read further", ""},
		{"a message that does not decode", proto.MediaType, slices.Concat(start, frameOf(3, []byte{0xff, 0xff, 0xff}), finish),
			[]string{"not-an-event"}, fmt.Sprintf("the event is a binary frame that does not decode (frame 2, byte %d)", len(start)+4), ""},
		{"a zero-length frame", proto.MediaType, slices.Concat(start, frameOf(0, nil), finish),
			[]string{"not-an-event"}, "the event is a binary frame that does not decode (frame 2", ""},
		{"invalid UTF-8 in a string", proto.MediaType, slices.Concat(frameOf(uint32(len(runStartedBad)), runStartedBad), finish),
			[]string{"not-an-event"}, "the event is a binary frame that does not decode (frame 1", ""},
		{"an unknown event variant alone", proto.MediaType, slices.Concat(start, frameOf(3, []byte{0xc2, 0x02, 0x00}), finish),
			nil, "", "unknown-event"},
		{"SSE where binary was said", proto.MediaType, slices.Concat(start, []byte("data: "+finished+"\n\n")),
			[]string{rules.BinaryFraming}, `its length reads "data": text where a binary frame should start`, ""},
		{"binary where SSE was said", "text/event-stream", slices.Concat(start, finish),
			[]string{rules.ContentType}, "the body is AG-UI's binary transport", ""},
		{"the binary type with a parameter", proto.MediaType + "; charset=binary", slices.Concat(start, finish),
			[]string{rules.ContentType}, `reads the binary transport only under exactly "application/vnd.ag-ui.event+proto"`, ""},
		{"the binary type in another case", "Application/Vnd.AG-UI.Event+Proto", slices.Concat(start, finish),
			[]string{rules.ContentType}, `the answer is "Application/Vnd.AG-UI.Event+Proto": @ag-ui/client 1.0`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ex := Run(t.Context(), Request{URL: servertest.Upstream(t, binaryAnswer(tt.ct, tt.body)), Input: in, Binary: true})
			var got []string
			for _, f := range ex.Failures {
				got = append(got, f.Rule)
			}
			if ex.Violation != nil {
				got = append(got, ex.Violation.Rule.ID())
			}
			if ex.Truncated != "" {
				got = append(got, rules.Truncated)
			}
			if !slices.Equal(got, tt.rules) {
				t.Fatalf("failed by %v, want %v: %+v", got, tt.rules, ex)
			}
			first := ""
			if len(ex.Failures) > 0 {
				first = ex.Failures[0].Text
			} else if ex.Violation != nil {
				first = ex.Violation.Reason
			}
			if !strings.Contains(first, tt.says) {
				t.Errorf("%q, want it to say %q", first, tt.says)
			}
			if tt.warned != "" && (len(ex.Warnings) != 1 || ex.Warnings[0].Rule.ID() != tt.warned || ex.Warnings[0].Index != 1) {
				t.Errorf("warnings %+v, want %s at event 2", ex.Warnings, tt.warned)
			}
		})
	}
}
