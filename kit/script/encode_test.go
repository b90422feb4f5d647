package script_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	if raw == nil {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// What Encode writes, Parse reads back: the same frames, events byte for
// byte, and the same members.
func roundTrip(t *testing.T, s script.Script) script.Script {
	t.Helper()
	data, err := s.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := script.Parse(data, "unnamed")
	if err != nil {
		t.Fatalf("%v in\n%s", err, data)
	}
	if len(back.Frames) != len(s.Frames) {
		t.Fatalf("%d frames, want %d", len(back.Frames), len(s.Frames))
	}
	for i, st := range s.Frames {
		got := back.Frames[i]
		if !bytes.Equal(got.Event, st.Event) || got.Comment != st.Comment || got.After != st.After || got.Type != st.Type {
			t.Errorf("frame %d: %+v, want %+v", i, got, st)
		}
	}
	if compact(t, back.Input) != compact(t, s.Input) || compact(t, back.Expect) != compact(t, s.Expect) ||
		back.Description != s.Description || back.Peer != s.Peer || len(back.Extra) != len(s.Extra) {
		t.Errorf("members differ:\n%s", data)
	}
	return back
}

func TestEncodeRoundTripsEveryFixture(t *testing.T) {
	for _, f := range fixtures.All() {
		t.Run(f.Name, func(t *testing.T) {
			if back := roundTrip(t, f.Script); back.Name != f.Name {
				t.Errorf("name %q", back.Name)
			}
		})
	}
}

// Events are written as they are: duplicate members, number spellings,
// escapes and HTML characters survive, and nothing is escaped anew.
func TestEncodeKeepsEventsAsWritten(t *testing.T) {
	s, err := script.Parse([]byte(`[
  {"type":"X","type":"Y","n":1.50,"big":12345678901234567890,"s":"<&> \u00e9 é \u2028 \"q\""},
  {"afterMs":1.5,"comment":"keep \"alive\" <now>"},
  {"afterMs":2000,"event":{"type":"RUN_FINISHED","threadId":"t","runId":"r"}}
]`), "tricky")
	if err != nil {
		t.Fatal(err)
	}
	back := roundTrip(t, s)
	if back.Name != "tricky" || back.Frames[1].After != 1500*time.Microsecond {
		t.Errorf("%+v", back)
	}
	data, _ := s.Encode()
	if strings.Contains(string(data), `\u003c`) || !strings.Contains(string(data), `"afterMs": 1.5`) || !strings.HasPrefix(string(data), "{\n  \"name\": \"tricky\",\n  \"stream\": [\n") {
		t.Errorf("written as\n%s", data)
	}
}

func TestEncodeRefusesWhatIsNotJSON(t *testing.T) {
	s := script.Script{Frames: []script.Frame{{Event: json.RawMessage(`{"type":`)}}}
	if _, err := s.Encode(); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Errorf("%v", err)
	}
}

// FrameSize is what a frame adds to Encode's output, to the byte, for
// every fixture's frames and for events and comments Encode indents or
// escapes: nested and empty values, spaces between tokens, punctuation
// and escapes in strings, control characters and bytes not UTF-8.
func TestFrameSizeIsWhatEncodeWrites(t *testing.T) {
	frames := []script.Frame{
		{Event: json.RawMessage(`{}`)},
		{Event: json.RawMessage(`{"type":"X","a":[],"b":{},"c":[[1,[2,{"d":[]}]],{"e":{"f":null}}]}`), After: 1500 * time.Microsecond},
		{Event: json.RawMessage(` { "type" : "X" , "s" : "{[,:]} \" \\\" \\\\" , "n" : -1.5e3 } `), After: time.Hour},
		{Comment: ""},
		{Comment: "keep \"alive\" \\ <now> \b\t\n\f\r\x01\x1f \xff é \u2028", After: 3 * time.Millisecond / 7},
	}
	for _, f := range fixtures.All() {
		frames = append(frames, f.Frames...)
	}
	base := script.Script{Name: "sized", Frames: []script.Frame{{Event: json.RawMessage(`{"type":"RUN_STARTED"}`)}}}
	before, err := base.Encode()
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range frames {
		s := base
		s.Frames = append(slices.Clip(base.Frames), f)
		after, err := s.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := script.FrameSize(f), len(after)-len(before); got != want {
			t.Errorf("frame %d: %d bytes, Encode wrote %d:\n%s", i, got, want, after)
		}
	}
}
