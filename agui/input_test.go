package agui

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// The run input: docs.ag-ui.com/spec/1.0/basic/run-input, basic/processing
// ("Outgoing material") and basic/versioning ("Version negotiation").

func TestReadInput(t *testing.T) {
	for data, says := range map[string]string{
		`{"threadId":"t","runId":"r"}`:                                                "messages: is required",
		`{"threadId":"t","messages":[]}`:                                              "runId: is required",
		`{"THREADID":"t","runId":"r","messages":[]}`:                                  "threadId: is required", // a case variant is another member
		`{"threadId":7,"runId":"r","messages":[]}`:                                    "threadId: must be a string",
		`{"threadId":"t","runId":"r","messages":[42]}`:                                "messages/0: must be an object",
		`{"threadId":"t","runId":"r","messages":[],"protocolVersion":1}`:              "protocolVersion: must be a string",
		`{"threadId":"t","runId":"r","messages":[],"state":null}`:                     "state: must not be null",
		`{"threadId":"t","runId":"r","messages":[],"forwardedProps":null}`:            "forwardedProps: must not be null",
		`{"threadId":"t","runId":"r","messages":[],"resume":[42]}`:                    "resume/0: must be an object",
		`{"threadId":"t","runId":"r","messages":[],"resume":[{"status":"resolved"}]}`: "resume/0/interruptId: is required",
		`{"threadId":"t","runId":"r","messages":[],"tools":[{"name":"f"}]}`:           "tools/0/description: is required",
		`[]`:            "must be a JSON object",
		`{"a":1,"a":2}`: "malformed",
	} {
		if _, _, err := ReadInput([]byte(data)); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: %v, want %q", data, err, says)
		}
	}
	in, ws, err := ReadInput([]byte(`{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"hi","mood":"?"}],"futureField":1,` +
		`"state":{"services":[]},"forwardedProps":{"scenario":"normal","x":null},"resume":[{"interruptId":"i","status":"abandoned"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var removed []string
	for _, w := range ws {
		removed = append(removed, strings.Fields(w.Text)[1])
	}
	if strings.Join(removed, " ") != "/messages/0/mood /futureField /resume/0" {
		t.Errorf("removed %v", ws)
	}
	if in.ThreadID != "t" || in.RunID != "r" || string(in.State()) != `{"services":[]}` {
		t.Errorf("input %+v %s", in, in.State())
	}
}

// An input is read once: its members are kept, and decoded when asked
// for. What the Input says must not follow the caller's buffer, a legacy
// part spelled with escapes must be upgraded as one spelled plainly, and
// the bound on nesting holds for the input as a whole.
func TestReadInputKeepsItsOwnCopy(t *testing.T) {
	body := []byte(`{"threadId":"t","runId":"r","messages":[],"state":{"n":1},"protocolVersion":"1.0","forwardedProps":{"scenario":"normal"}}`)
	in, _, err := ReadInput(body)
	if err != nil {
		t.Fatal(err)
	}
	for i := range body {
		body[i] = ' ' // a pooled buffer, reused
	}
	if in.ThreadID != "t" || in.RunID != "r" || string(in.State()) != `{"n":1}` || in.ProtocolVersion() != "1.0" {
		t.Errorf("after the caller's buffer changed: %q %q %s %q", in.ThreadID, in.RunID, in.State(), in.ProtocolVersion())
	}
	if props, _ := in.ForwardedProps().(*jsonpatch.Object); props == nil || props.Len() != 1 {
		t.Errorf("forwardedProps %v", in.ForwardedProps())
	}
	state := in.State()
	state[0] = 'x'
	if string(in.State()) != `{"n":1}` {
		t.Errorf("State shares the input's bytes: %s", in.State())
	}
}

func TestReadInputUpgradesAnEscapedBinaryPart(t *testing.T) {
	in := input(t, `{"threadId":"t","runId":"r","messages":[{"id":"old","role":"user","content":[`+
		`{"typ\u0065":"bin\u0061ry","mimeType":"image/png","url":"https://example.com/b.png"}]}]}`)
	body, _, err := in.Request("")
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"image","source":{"type":"url","value":"https://example.com/b.png","mimeType":"image/png"}}`; !strings.Contains(string(body), want) {
		t.Errorf("request %s\nwant the part %s", body, want)
	}
}

func TestReadInputBoundsItsNesting(t *testing.T) {
	deep := func(levels int) string { // the input's object is the first level
		return `{"threadId":"t","runId":"r","messages":[],"state":{"x":` + strings.Repeat("[", levels-2) + strings.Repeat("]", levels-2) + `}}`
	}
	if _, _, err := ReadInput([]byte(deep(jsonpatch.MaxDepth))); err != nil {
		t.Errorf("%d levels: %v", jsonpatch.MaxDepth, err)
	}
	if _, _, err := ReadInput([]byte(deep(jsonpatch.MaxDepth + 1))); err == nil || !strings.Contains(err.Error(), "nested deeper than") {
		t.Errorf("%d levels: %v", jsonpatch.MaxDepth+1, err)
	}
}

// basic/versioning: "A consumer declares the protocol version it speaks
// on RunAgentInput.protocolVersion", "except toward a peer it knows
// predates the field"; run-input: activity messages "MUST [be stripped]
// from messages before sending".
func TestRequest(t *testing.T) {
	in := input(t, `{"threadId":"t","runId":"r","protocolVersion":"0.9","messages":[`+
		`{"id":"u","role":"user","content":[{"type":"text","text":"What is "},{"type":"text","text":"this?"},{"type":"image","source":{"type":"url","value":"https://example.com/a.png"}}]},`+
		`{"id":"act","role":"activity","activityType":"search","content":{}},`+
		`{"id":"old","role":"user","content":[{"type":"binary","mimeType":"image/png","url":"https://example.com/b.png","filename":"b.png"}]}]}`)
	body, ws, err := in.Request("")
	if err != nil || len(ws) != 0 {
		t.Fatal(err, ws)
	}
	want := `{"threadId":"t","runId":"r","messages":[` +
		`{"id":"u","role":"user","content":[{"type":"text","text":"What is "},{"type":"text","text":"this?"},{"type":"image","source":{"type":"url","value":"https://example.com/a.png"}}]},` +
		`{"id":"old","role":"user","content":[{"type":"image","source":{"type":"url","value":"https://example.com/b.png","mimeType":"image/png"},"metadata":{"filename":"b.png"}}]}],` +
		`"protocolVersion":"1.1"}`
	if string(body) != want {
		t.Errorf("request\n%s\nwant\n%s", body, want)
	}
	// A peer from before the version field gets none.
	body, _, _ = in.Request("0.0.57")
	if strings.Contains(string(body), "protocolVersion") {
		t.Errorf("for 0.0.57: %s", body)
	}
	// A peer from before content parts gets text, and the loss is told.
	body, ws, _ = in.Request("0.0.39")
	if !strings.Contains(string(body), `{"id":"u","role":"user","content":"What is this?"}`) || len(ws) != 2 ||
		!strings.Contains(ws[0].Text, "DROPS non-text parts (image)") {
		t.Errorf("for 0.0.39: %s %v", body, ws)
	}
}

// basic/versioning, "Downgrading": for a peer from before subagents, the
// lifecycle is dropped with a warning (lossy) and attribution stripped
// (lossless).
func TestOlderPeerLosesSubagents(t *testing.T) {
	c, steps := replayWith(t, Input{}, Options{Peer: "0.0.57"}, run(
		`{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"researcher"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"Found it.","subagentRunId":"s"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m","subagentRunId":"s"}`,
		`{"type":"SUBAGENT_FINISHED","subagentRunId":"s"}`,
	)...)
	accepted(t, c, steps)
	if got := delivered(steps); strings.Contains(got, "SUBAGENT") {
		t.Errorf("delivered %s", got)
	}
	if got := messages(c); got != `[{"id":"m","role":"assistant","content":"Found it."}]` {
		t.Errorf("messages %s", got)
	}
	if ws := warned(steps); len(ws) != 2 || !strings.Contains(ws[0].Text, "dropping SUBAGENT_STARTED") {
		t.Errorf("warnings %v", ws)
	}
	if _, err := NewConsumer(Input{}, Options{Peer: "old"}); err == nil {
		t.Error("a peer version that is none was taken")
	}
}

func TestVersions(t *testing.T) {
	for _, tt := range []struct {
		a, b   string
		before bool
	}{{"1.9", "1.10", true}, {"0.0.57", "1.0", true}, {"1.0", "1.0", false}, {"1.1", "1.0", false}, {"0.0.39", "0.0.40", true}} {
		a, okA := ParseVersion(tt.a)
		b, okB := ParseVersion(tt.b)
		if !okA || !okB || a.Before(b) != tt.before {
			t.Errorf("%s before %s: %v", tt.a, tt.b, a.Before(b))
		}
	}
	for text, want := range map[string]Version{"1.1": Current, "1.0": V1_0, "1.0.0": V1_0} {
		if v, ok := ParseVersion(text); !ok || v != want {
			t.Errorf("%s read as %v", text, v)
		}
	}
	for _, text := range []string{"1.1", "1.0", "1.10", "0.0.57", "2.3.4", "999999.999999.999999"} {
		if v, ok := ParseVersion(text); !ok || v.String() != text {
			t.Errorf("%s reads back as %s", text, v)
		}
	}
	if v, _ := ParseVersion("1.10"); v.Major() != 1 || Current.String() != "1.1" {
		t.Errorf("1.10 is of line %d; Current is %s", v.Major(), Current)
	}
	for _, bad := range []string{"", "1", "draft", "1.x", "1.0.0.0", "-1.0", "01.0", "1.0-rc1", "1.1000000", "+1.0", "1.", ".1", "1..0", "1.0.", " 1.0", "1.01", "1.0.0.", "1e3.0"} {
		if _, ok := ParseVersion(bad); ok {
			t.Errorf("%q read as a version", bad)
		}
	}
}

// ForwardedProp reads one member of forwardedProps as ForwardedProps'
// tree holds it, and tells apart the three ways it can be missing.
func TestForwardedProp(t *testing.T) {
	for _, c := range []struct {
		props   string // "" for none
		want    string // the member's JSON
		ok, err bool
	}{
		{props: "", ok: false},
		{props: `{}`, ok: false},
		{props: `{"other":1}`, ok: false},
		{props: `{"a":[1],"scenario":"normal","b":{}}`, want: `"normal"`, ok: true},
		{props: `{"sc\u0065nario":"n\u00e9"}`, want: `"né"`, ok: true},
		{props: `{"scenario":null}`, want: `null`, ok: true},
		{props: `{"scenario":{"x":2.5}}`, want: `{"x":2.5}`, ok: true},
		{props: `"normal"`, err: true},
		{props: `["scenario"]`, err: true},
		{props: `7`, err: true},
	} {
		body := `{"threadId":"t","runId":"r","messages":[],"state":{},"tools":[],"context":[]`
		if c.props != "" {
			body += `,"forwardedProps":` + c.props
		}
		in := input(t, body+"}")
		v, ok, err := in.ForwardedProp("scenario")
		if ok != c.ok || (err != nil) != c.err {
			t.Errorf("%s: ok %v, err %v; want ok %v, an error %v", c.props, ok, err, c.ok, c.err)
			continue
		}
		if got := string(jsonpatch.Encode(v)); ok && got != c.want {
			t.Errorf("%s: %s", c.props, got)
		}
		if whole, isObject := in.ForwardedProps().(*jsonpatch.Object); isObject {
			member, present := whole.Get("scenario")
			if present != ok || string(jsonpatch.Encode(member)) != string(jsonpatch.Encode(v)) {
				t.Errorf("%s: ForwardedProp %s %v, ForwardedProps' member %s %v", c.props, jsonpatch.Encode(v), ok, jsonpatch.Encode(member), present)
			}
		}
	}
}

// stringOf unquotes as jsontext does, on the path that copies once as on
// the one that unquotes.
func TestStringOf(t *testing.T) {
	for _, raw := range []string{
		`""`, `"plain"`, `"né"`, `"a\"b"`, `"tab\there"`, `"\u00e9"`, "\"a\x01b\"", "\"\xff\"", `"`, `"open`, `7`, `null`, ``, `"a"b"`,
	} {
		want := ""
		if b, err := jsontext.AppendUnquote(nil, []byte(raw)); err == nil {
			want = string(b)
		}
		if got := stringOf([]byte(raw)); got != want {
			t.Errorf("stringOf(%q) = %q, want %q", raw, got, want)
		}
	}
}

// A string the schema names is found by its JSON text and shared, not
// copied; a text that only resembles one is not found.
func TestSchemaStringsAreShared(t *testing.T) {
	held := 0
	for _, s := range schemaStrings {
		if s == "" {
			continue
		}
		held++
		raw := []byte(`"` + s + `"`)
		if string(quote(s)) != string(raw) {
			t.Errorf("%q is held, but JSON writes it %s", s, quote(s))
		}
		if got, ok := schemaStrings.find(raw); !ok || unsafe.StringData(got) != unsafe.StringData(s) {
			t.Errorf("%s: found %q %v, not the schema's string", raw, got, ok)
		}
		if n := testing.AllocsPerRun(10, func() { stringOf(raw) }); n != 0 {
			t.Errorf("stringOf(%s) allocates %v times", raw, n)
		}
	}
	for _, s := range []string{"threadId", "forwardedProps", "RUN_STARTED", "STATE_DELTA", "tool-call", "developer", "suspended"} {
		if _, ok := schemaStrings.find([]byte(`"` + s + `"`)); !ok {
			t.Errorf("%q is not held", s)
		}
	}
	if held < 100 || held > len(schemaStrings)/2 {
		t.Errorf("%d schema strings held in %d slots: the table should be between a quarter and half full", held, len(schemaStrings))
	}
	for _, raw := range []string{`"threadid"`, `"threadIdx"`, `"threadI"`, `threadId`, `"threadId`, `threadId"`, `"thread\u0049d"`, `""`, `"`, `"x"`} {
		if got, ok := schemaStrings.find([]byte(raw)); ok {
			t.Errorf("%s found as %q", raw, got)
		}
	}
}
