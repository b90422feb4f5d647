package proto

import (
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
