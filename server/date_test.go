package server

import (
	"testing"
	"time"
)

// A second's Date is made once and shared; the next second has its own,
// in GMT whatever the clock's zone.
func TestDateHeader(t *testing.T) {
	at := time.Date(2026, 12, 7, 5, 30, 0, 0, time.FixedZone("CET", 3600))
	first := dateHeader(at)
	if len(first) != 1 || first[0] != "Mon, 07 Dec 2026 04:30:00 GMT" {
		t.Fatalf("Date %q", first)
	}
	if again := dateHeader(at.Add(999 * time.Millisecond)); &again[0] != &first[0] {
		t.Error("the same second's Date was made again")
	}
	if next := dateHeader(at.Add(time.Second)); next[0] != "Mon, 07 Dec 2026 04:30:01 GMT" {
		t.Errorf("the next second's Date is %q", next)
	}
	if back := dateHeader(at); back[0] != first[0] {
		t.Errorf("a clock set back gets %q", back)
	}
}
