package record

import (
	"strings"
	"testing"
)

// rewriteAll rewrites documents in order, the first being the run input
// sent.
func rewriteAll(t *testing.T, docs ...string) []string {
	t.Helper()
	m, err := newIDs([]byte(docs[0]))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(docs))
	for i, d := range docs {
		b, err := m.rewrite([]byte(d))
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		out[i] = string(b)
	}
	return out
}

// fresh is the placeholders of an input that names no run.
func fresh(t *testing.T) *ids {
	t.Helper()
	m, err := newIDs([]byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Every id the protocol defines takes a placeholder of its kind, in the
// order first seen (the input first); one source id is one placeholder
// everywhere; application data is untouched.
func TestIDsArePlaceholdersKeepingRelations(t *testing.T) {
	in := []string{
		`{"threadId":"T9","runId":"R9","messages":[{"id":"U","role":"user","content":"hi"}],"state":{"runId":"R9"}}`,
		`{"type":"RUN_STARTED","threadId":"T9","runId":"R9","parentRunId":"R0","input":{"threadId":"T9","runId":"R9","messages":[{"id":"U","role":"user","content":"hi"}]}}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"A","role":"assistant"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"C","toolCallName":"f","parentMessageId":"A"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"Res","toolCallId":"C","content":"done"}`,
		`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"A","role":"assistant","toolCalls":[{"id":"C","type":"function","function":{"name":"f","arguments":"{}"}}]},{"id":"Res","role":"tool","toolCallId":"C","content":"done"}]}`,
		`{"type":"STATE_SNAPSHOT","snapshot":{"id":"A","runId":"R9","messages":[{"id":"U"}]}}`,
		`{"type":"CUSTOM","name":"n","value":{"toolCallId":"C"}}`,
		`{"type":"RUN_FINISHED","threadId":"T9","runId":"R9","outcome":{"type":"interrupt","interrupts":[{"id":"I","reason":"approve","toolCallId":"C"}]}}`,
	}
	want := []string{
		`{"threadId":"thread-1","runId":"run-1","messages":[{"id":"msg-1","role":"user","content":"hi"}],"state":{"runId":"R9"}}`,
		`{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1","parentRunId":"run-2","input":{"threadId":"thread-1","runId":"run-1","messages":[{"id":"msg-1","role":"user","content":"hi"}]}}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"msg-2","role":"assistant"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"call-1","toolCallName":"f","parentMessageId":"msg-2"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"msg-3","toolCallId":"call-1","content":"done"}`,
		`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"msg-2","role":"assistant","toolCalls":[{"id":"call-1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"id":"msg-3","role":"tool","toolCallId":"call-1","content":"done"}]}`,
		`{"type":"STATE_SNAPSHOT","snapshot":{"id":"A","runId":"R9","messages":[{"id":"U"}]}}`,
		`{"type":"CUSTOM","name":"n","value":{"toolCallId":"C"}}`,
		`{"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-1","outcome":{"type":"interrupt","interrupts":[{"id":"interrupt-1","reason":"approve","toolCallId":"call-1"}]}}`,
	}
	for i, got := range rewriteAll(t, in...) {
		if got != want[i] {
			t.Errorf("document %d:\n got %s\nwant %s", i, got, want[i])
		}
	}
}

// Two recordings of one agent, under other ids, come out the same.
func TestPlaceholdersAreStable(t *testing.T) {
	run := func(thread, run, msg string) string {
		return strings.Join(rewriteAll(t,
			`{"threadId":"`+thread+`","runId":"`+run+`","messages":[]}`,
			`{"type":"RUN_STARTED","threadId":"`+thread+`","runId":"`+run+`"}`,
			`{"type":"TEXT_MESSAGE_START","messageId":"`+msg+`"}`,
		), "\n")
	}
	if a, b := run("t-1a2b", "r-9f", "m-77"), run("t-zz", "r-00", "m-x"); a != b {
		t.Errorf("%s\n!=\n%s", a, b)
	}
	// A source id that looks like a placeholder of another is no trouble:
	// each is replaced once, from the source.
	got := rewriteAll(t, `{"threadId":"t","runId":"run-2","messages":[]}`, `{"type":"RUN_STARTED","threadId":"t","runId":"run-1"}`)
	if got[0] != `{"threadId":"thread-1","runId":"run-1","messages":[]}` || got[1] != `{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-2"}` {
		t.Errorf("%q", got)
	}
}

// Every byte but the ids is kept: names twice, escapes, number spellings.
func TestRewriteKeepsEverythingElse(t *testing.T) {
	got := rewriteAll(t, `{"type":"X","type":"Y","messageId":"m\u0031","n":1.50,"s":"\u00e9<&>","threadId":7}`)
	if got[0] != `{"type":"X","type":"Y","messageId":"msg-1","n":1.50,"s":"\u00e9<&>","threadId":7}` {
		t.Errorf("%s", got[0])
	}
	if _, err := fresh(t).rewrite([]byte(`{"type":`)); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Errorf("%v", err)
	}
}

// An event of deep nesting and many strings is rewritten in work linear
// in its size: no string below the deepest id path is looked up. (Looking
// each one up by its whole path took 81 s for this 810 KB event.)
func TestADeepEventIsRewrittenInLinearWork(t *testing.T) {
	const depth, count = 5_000, 200_000
	var b strings.Builder
	b.WriteString(`{"type":"CUSTOM","messageId":"m","value":`)
	b.WriteString(strings.Repeat("[", depth))
	b.WriteString(`"x"`)
	b.WriteString(strings.Repeat(`,"x"`, count-1))
	b.WriteString(strings.Repeat("]", depth))
	b.WriteString("}")
	doc := []byte(b.String())
	var got []byte
	allocs := testing.AllocsPerRun(1, func() {
		var err error
		if got, err = fresh(t).rewrite(doc); err != nil {
			t.Fatal(err)
		}
	})
	if !strings.HasPrefix(string(got), `{"type":"CUSTOM","messageId":"msg-1","value":[[[`) || len(got) != len(doc)+len("msg-1")-len("m") {
		t.Errorf("rewritten as %.80s…", got)
	}
	// A lookup per string would be 200,000 allocations at least.
	if allocs > 2_000 {
		t.Errorf("%v allocations for %d strings: work grows with the strings times their depth", allocs, count)
	}
}
