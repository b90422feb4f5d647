package proto

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// A template filled in gives the frame the event's JSON with the fills in
// place of its marks would give, whatever their lengths (a length prefix
// that grows a byte, or shrinks one, included), marks at any depth.
func TestATemplateFilledIsTheFrameOfTheFilledEvent(t *testing.T) {
	const th, run = "\ue000thread\ue000", "\ue000run\ue000"
	events := []string{
		`{"type":"RUN_STARTED","threadId":"` + th + `","runId":"` + run + `","protocolVersion":"1.0"}`,
		`{"type":"RUN_FINISHED","threadId":"` + th + `","runId":"` + run + `","outcome":{"type":"interrupt","interrupts":[{"id":"rollback-api@` + th + `","reason":"confirmation","toolCallId":"c1"},{"id":"x@` + th + `@` + th + `","reason":"r"}]}}`,
		`{"type":"RUN_STARTED","threadId":"` + th + `","runId":"` + run + `","parentRunId":"` + run + `","input":{"threadId":"` + th + `","runId":"` + run + `","messages":[{"id":"m","role":"user","content":"hi ` + th + `"}],"tools":[],"context":[],"resume":[]}}`,
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1}]}`,
	}
	// Fills are never empty: proto3 leaves an empty string out, and a
	// request's ids are never blank.
	fills := [][2]string{{"t1", "r1"}, {"t", "r"}, {strings.Repeat("t", 200), strings.Repeat("r", 130)}, {strings.Repeat("t", 20000), "r"}, {"t\"é😀", "r\t"}}
	for _, e := range events {
		tp, err := NewTemplate([]byte(e), th, run)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		for _, f := range fills {
			got := tp.Append(nil, []byte(f[0]), []byte(f[1]))
			filled := strings.NewReplacer(th, jsonText(f[0]), run, jsonText(f[1])).Replace(e)
			want, err := AppendFrame(nil, []byte(filled))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s filled with %q:\n got %x\nwant %x", e, f, got, want)
			}
		}
	}
	// A mark inside a JSON value is not reached: no template.
	if _, err := NewTemplate([]byte(`{"type":"STATE_SNAPSHOT","snapshot":{"id":"`+th+`"}}`), th, run); !errors.Is(err, errMarkInValue) {
		t.Errorf("a mark in a Value: %v", err)
	}
}

// jsonText is s as it reads inside a JSON string.
func jsonText(s string) string {
	return strings.NewReplacer(`"`, `\"`, "\t", `\t`).Replace(s)
}
