// Package core is the client's pure core: the Wire and its rules, atomic
// JSON Patch application, the run lifecycle, the Model, the Msgs and Cmds,
// and Update. It does no I/O; the effects package beside it posts, reads
// the stream and feeds Msgs back, and the ui package renders the Model.
package core

import (
	"encoding/json"
	"iter"
	"slices"
)

// Series groups services: Core (the product path) or Platform (shared).
type Series string

const (
	CoreSeries     Series = "Core"
	PlatformSeries Series = "Platform"
)

// Service is one measured service.
type Service struct {
	ID      string  `json:"id"`
	Name    string  `json:"name"`
	Series  Series  `json:"series"`
	Volume  float64 `json:"volume"`  // requests per minute
	Latency float64 `json:"latency"` // p95, milliseconds
}

// Wire is the remote state the agent streams: a list of services. A Wire
// held by the Model is always valid and never modified in place, so Wires
// share their parts freely: a delta to one service makes a Wire that
// shares every chunk but that service's with the one before.
type Wire struct {
	chunks [][]Service // ChunkSize services each, the last maybe fewer
	len    int
	ids    map[string]int // each id's first position
}

// ChunkSize is how many services share one backing array; every array
// but the last is full. A delta copies one chunk and the list of chunks:
// at 10,000 services, 4 KiB and 4 KiB instead of the 640 KiB of every
// service.
const ChunkSize = 64

// NewWire makes a Wire of these services (not validated) and indexes it.
// It keeps the slice: the caller must not change it afterwards.
func NewWire(services []Service) Wire {
	w := Wire{len: len(services)}
	for start := 0; start < len(services); start += ChunkSize {
		w.chunks = append(w.chunks, slices.Clip(services[start:min(start+ChunkSize, len(services))]))
	}
	w.ids = w.index()
	return w
}

// Len is the number of services.
func (w Wire) Len() int { return w.len }

// At is the service at position i.
func (w Wire) At(i int) Service { return w.chunks[i/ChunkSize][i%ChunkSize] }

// All yields the services in order.
func (w Wire) All() iter.Seq2[int, Service] {
	return func(yield func(int, Service) bool) {
		for c, chunk := range w.chunks {
			for j, s := range chunk {
				if !yield(c*ChunkSize+j, s) {
					return
				}
			}
		}
	}
}

// Services returns the services in order, as a new slice.
func (w Wire) Services() []Service {
	out := make([]Service, 0, w.len)
	for _, chunk := range w.chunks {
		out = append(out, chunk...)
	}
	return out
}

// MarshalJSON writes the Wire as the agent sends it.
func (w Wire) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Services []Service `json:"services"`
	}{w.Services()})
}

// Find returns the service with the given id.
func (w Wire) Find(id string) (Service, bool) {
	i, ok := w.index()[id]
	if !ok {
		return Service{}, false
	}
	return w.At(i), true
}

func (w Wire) index() map[string]int {
	if w.ids != nil {
		return w.ids
	}
	ids := make(map[string]int, w.len)
	for i, s := range w.All() {
		if _, seen := ids[s.ID]; !seen {
			ids[s.ID] = i
		}
	}
	return ids
}

// Chunks is the services in the arrays they are held in, in order (not to
// be changed). A
// chunk the last change did not touch is the same array as before, so a
// view can tell what changed without comparing services.
func (w Wire) Chunks() [][]Service { return w.chunks }

// withChanges returns a Wire with the services at some positions replaced,
// copying only the chunks they are in. The index is kept when no id moved.
func (w Wire) withChanges(changed map[int]Service) Wire {
	next := Wire{chunks: slices.Clone(w.chunks), len: w.len, ids: w.ids}
	copied := map[int]bool{}
	for i, s := range changed {
		if s.ID != w.At(i).ID {
			next.ids = nil
		}
		c := i / ChunkSize
		if !copied[c] {
			next.chunks[c] = slices.Clone(next.chunks[c])
			copied[c] = true
		}
		next.chunks[c][i%ChunkSize] = s
	}
	if next.ids == nil {
		next.ids = next.index()
	}
	return next
}
