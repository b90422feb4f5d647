package server

import (
	"log/slog"
	"net/http/httptest"
	"testing"
)

// A requestLog given back to the pool carries nothing of its request: no
// writer, no status, and only the room for the next line's own four
// attributes, emptied.
func TestARequestLogIsReleasedEmpty(t *testing.T) {
	l := requestLogs.Get().(*requestLog)
	l.ResponseWriter = httptest.NewRecorder()
	l.WriteHeader(503)
	l.attrs[0] = slog.String("method", "POST")
	addLogAttrs(l, slog.String("scenario", "normal"), slog.Any("inputWarnings", []string{"x"}))
	l.release()
	if l.ResponseWriter != nil || l.status != 0 || len(l.attrs) != 4 {
		t.Fatalf("released with writer %v, status %d, %d attributes", l.ResponseWriter, l.status, len(l.attrs))
	}
	for i, a := range l.attrs[:cap(l.attrs)] {
		if !a.Equal(slog.Attr{}) {
			t.Errorf("attribute %d still %v", i, a)
		}
	}
}
