package proto

import (
	"bytes"
	"os"
	"testing"
)

// testdata/official.bin holds the frames @ag-ui/encoder 1.0.0 wrote for
// events.jsonl, and official.jsonl what @ag-ui/proto 1.0.0's decode gave
// for each (node bench/conformance/proto.mjs --write remakes both): Decode
// gives the same JSON for the same bytes.
func TestDecodesAsTheOfficialDecoder(t *testing.T) {
	stream, err := os.ReadFile("testdata/official.bin")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/official.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(want), []byte("\n"))
	msgs := frames(t, stream)
	if len(msgs) != len(lines) || len(msgs) == 0 {
		t.Fatalf("%d frames, %d decoded events", len(msgs), len(lines))
	}
	for i, msg := range msgs {
		got, err := Decode(msg)
		if err != nil || !sameJSON(t, got, lines[i]) {
			t.Errorf("frame %d: %s, %v\n  @ag-ui/proto: %s", i, got, err, lines[i])
		}
	}
}
