package ui

import "github.com/agent-analysis/agent-analysis/app/core"

// rows is the visible services: every service of the Wire's arrays, or
// those of one series, in order, without copying them.
type rows struct {
	chunks [][]core.Service
	at     []int32 // positions of the visible services; nil when all are
	n      int
}

func visibleRows(chunks [][]core.Service, f core.Filter) rows {
	v := rows{chunks: chunks}
	pos := 0
	for _, chunk := range chunks {
		for _, s := range chunk {
			if f == core.All {
				v.n++
			} else if f.Admits(s) {
				v.at = append(v.at, int32(pos))
			}
			pos++
		}
	}
	if f != core.All {
		v.n = len(v.at)
	}
	return v
}

func (v rows) Len() int { return v.n }

func (v rows) At(i int) core.Service {
	p := i
	if v.at != nil {
		p = int(v.at[i])
	}
	return v.chunks[p/core.ChunkSize][p%core.ChunkSize]
}

// Index is the position of a service in the list, -1 if it is not there.
func (v rows) Index(id string) int {
	if id == "" {
		return -1
	}
	for i := range v.n {
		if v.At(i).ID == id {
			return i
		}
	}
	return -1
}
