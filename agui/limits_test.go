package agui

import (
	"fmt"
	"strings"
	"testing"
)

// The engine's own bounds (limits.go): a hostile stream is rejected with
// the bound named, never held or worked on without end.
func TestLimits(t *testing.T) {
	big := `{"type":"CUSTOM","name":"x","value":"` + strings.Repeat("x", MaxEventBytes) + `"}`
	_, steps := replay(t, started, big)
	rejected(t, steps, Limit, 1, "over the 1 MiB bound")

	var open []string
	for i := range MaxOpen + 1 {
		open = append(open, fmt.Sprintf(`{"type":"TEXT_MESSAGE_START","messageId":"m%d"}`, i))
	}
	_, steps = replay(t, append([]string{started}, open...)...)
	rejected(t, steps, Limit, MaxOpen+1, "more than 1000 messages, calls, spans, steps and subagents open at once")

	chunk := strings.Repeat("x", 64<<10)
	args := []string{started, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`}
	for range 16 { // 1 MiB of arguments
		args = append(args, `{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"`+chunk+`"}`)
	}
	_, steps = replay(t, args...)
	rejected(t, steps, Limit, 2+MaxTextBytes/len(chunk), "passed 256 KiB")

	deep := strings.Repeat("[", 600) + strings.Repeat("]", 600)
	_, steps = replay(t, started, `{"type":"STATE_SNAPSHOT","snapshot":`+deep+`}`)
	rejected(t, steps, Limit, 1, "nested deeper than 512 levels")
	deeper := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	_, steps = replay(t, started, `{"type":"CUSTOM","name":"x","value":`+deeper+`}`)
	rejected(t, steps, NotAnEvent, 1, "nested deeper than 10,000 levels")

	runs := []string{}
	for i := range MaxRuns + 1 {
		runs = append(runs, fmt.Sprintf(`{"type":"RUN_STARTED","threadId":"t","runId":"r%d"}`, i), fmt.Sprintf(`{"type":"RUN_FINISHED","threadId":"t","runId":"r%d"}`, i))
	}
	_, steps = replay(t, runs...)
	rejected(t, steps, Limit, 2*MaxRuns, "more than 1000 runs")

	// Warnings are kept up to a bound, and the rest counted.
	unknown := []string{started}
	for range MaxWarnings + 5 {
		unknown = append(unknown, `{"type":"FUTURE"}`)
	}
	c, steps := replay(t, append(unknown, finished)...)
	accepted(t, c, steps)
	if ws, more := c.Warnings(); len(ws) != MaxWarnings || more != 5 {
		t.Errorf("%d warnings kept, %d more", len(ws), more)
	}
}

// Every value the engine holds nests at most patch.MaxDepth (512) levels,
// wherever it sits in the event: a deeper one in metadata, a message, an
// activity's content or an operation's value is refused whole, naming the
// bound, before any of it is read (it once stopped the engine with a
// panic). Brackets inside strings are text, not nesting.
func TestNestingIsBoundedEverywhere(t *testing.T) {
	deep := strings.Repeat("[", 600) + strings.Repeat("]", 600)
	for _, event := range []string{
		`{"type":"TEXT_MESSAGE_START","messageId":"m","metadata":{"a":` + deep + `}}`,
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":` + deep + `}]}`,
		`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u","role":"user","content":"hi","metadata":{"a":` + deep + `}}]}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"plan","content":{"steps":` + deep + `}}`,
		`{"type":"CUSTOM","name":"x","value":` + deep + `}`,
	} {
		_, steps := replay(t, started, event)
		rejected(t, steps, Limit, 1, "nested deeper than 512 levels")
	}

	edge := strings.Repeat("[", 512) + strings.Repeat("]", 512) // the deepest a state may be
	brackets := strings.Repeat(`[{\"`, 600)
	c, steps := replay(t, run(
		`{"type":"STATE_SNAPSHOT","snapshot":`+edge+`}`,
		`{"type":"CUSTOM","name":"`+brackets+`","value":"`+brackets+`"}`,
	)...)
	accepted(t, c, steps)
	if state(c) != edge {
		t.Errorf("state %.40s…, want the 512-level array", state(c))
	}
}
