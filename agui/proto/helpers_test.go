package proto

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json"
)

// testEvents are testdata/events.jsonl: every event type with every member,
// and the shapes the binary schema needs care for, one per line.
func testEvents(t testing.TB) [][]byte {
	t.Helper()
	data, err := os.ReadFile("testdata/events.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for line := range bytes.Lines(data) {
		if line = bytes.TrimSpace(line); len(line) > 0 {
			out = append(out, line)
		}
	}
	return out
}

// sameJSON reports whether two JSON texts are the same value: members in
// any order, numbers by value.
func sameJSON(t testing.TB, a, b []byte) bool {
	t.Helper()
	var av, bv any
	if err := json.Unmarshal(a, &av); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &bv); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(av, bv)
}

// frames splits a stream's bytes into its frames' messages.
func frames(t testing.TB, stream []byte) [][]byte {
	t.Helper()
	var out [][]byte
	r := NewReader(bytes.NewReader(stream), MaxFrameBytes)
	r.OnFrame = func(msg []byte) { out = append(out, bytes.Clone(msg)) }
	for {
		if _, err := r.Next(); err != nil {
			break
		}
	}
	return out
}
