package proto

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

// Every event the encoder accepts decodes to the same JSON.
func TestRoundTrip(t *testing.T) {
	for _, event := range testEvents(t) {
		msg, err := Encode(event)
		if err != nil {
			t.Errorf("%s\n  Encode: %v", event, err)
			continue
		}
		back, err := Decode(msg)
		if err != nil {
			t.Errorf("%s\n  Decode: %v", event, err)
			continue
		}
		if !sameJSON(t, event, back) {
			t.Errorf("%s\n  came back as\n%s", event, back)
		}
	}
}

var update = flag.Bool("update", false, "rewrite testdata/ours.bin")

// testdata/ours.bin is every event of events.jsonl framed by this encoder:
// bench/conformance/proto.mjs has @ag-ui/proto 1.0.0 decode it (make
// conformance). -update rewrites it.
func TestOurFrames(t *testing.T) {
	var stream []byte
	for _, event := range testEvents(t) {
		var err error
		if stream, err = AppendFrame(stream, event); err != nil {
			t.Fatalf("%s: %v", event, err)
		}
	}
	if *update {
		if err := os.WriteFile("testdata/ours.bin", stream, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile("testdata/ours.bin")
	if err != nil || !bytes.Equal(golden, stream) {
		t.Errorf("testdata/ours.bin is not what Encode writes (%v): go test ./agui/proto -run TestOurFrames -update", err)
	}
}

// A message of a role the schema does not know, whose parts were all
// dropped, reads as empty content; so it is written.
func TestRoundTripOfALaterRoleWithNoParts(t *testing.T) {
	event := `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"1","role":"narrator","content":[]}]}`
	msg := encoded(t, event)
	if back, err := Decode(msg); err != nil || !sameJSON(t, back, []byte(event)) {
		t.Errorf("%s, %v", back, err)
	}
}
