package ui

import (
	"sort"

	"github.com/agent-analysis/agent-analysis/app/core"
)

// rows is the visible services: every service of the Wire's arrays, or
// those of one series, in order, without copying them. What it knows of
// each array is kept while the array is the same, so that after a delta
// it looks again at one array, not at every service.
type rows struct {
	chunks [][]core.Service
	filter core.Filter
	in     [][]uint8 // per array, where its visible services are; nil when all are
	before []int     // per array, how many visible services come before it; then how many there are
}

// visibleRows is the visible services of chunks, reusing what last found
// of the arrays it shares with them.
func visibleRows(chunks [][]core.Service, f core.Filter, last rows) rows {
	v := rows{chunks: chunks, filter: f, before: make([]int, len(chunks)+1)}
	if f != core.All {
		v.in = make([][]uint8, len(chunks))
	}
	for c, chunk := range chunks {
		n := len(chunk)
		if v.in != nil {
			if last.filter == f && c < len(last.chunks) && sameArray(last.chunks[c], chunk) {
				v.in[c] = last.in[c]
			} else {
				v.in[c] = admitted(chunk, f)
			}
			n = len(v.in[c])
		}
		v.before[c+1] = v.before[c] + n
	}
	return v
}

// An array's positions fit a byte.
const _ = uint8(core.ChunkSize - 1)

// admitted is where in an array the services a filter admits are.
func admitted(chunk []core.Service, f core.Filter) []uint8 {
	var at []uint8
	for k := range chunk {
		if f.Admits(chunk[k]) {
			at = append(at, uint8(k))
		}
	}
	return at
}

func (v rows) Len() int {
	if len(v.before) == 0 {
		return 0
	}
	return v.before[len(v.before)-1]
}

func (v rows) At(i int) core.Service {
	c := sort.Search(len(v.chunks), func(c int) bool { return v.before[c+1] > i })
	k := i - v.before[c]
	if v.in != nil {
		k = int(v.in[c][k])
	}
	return v.chunks[c][k]
}

// Index is the position of a service in the list, -1 if it is not there.
func (v rows) Index(id string) int {
	if id == "" {
		return -1
	}
	for c, chunk := range v.chunks {
		if v.in == nil {
			for k := range chunk {
				if chunk[k].ID == id {
					return v.before[c] + k
				}
			}
			continue
		}
		for j, k := range v.in[c] {
			if chunk[k].ID == id {
				return v.before[c] + j
			}
		}
	}
	return -1
}
