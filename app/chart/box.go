package chart

// Box is an axis-aligned rectangle in SVG user units.
type Box struct{ X0, Y0, X1, Y1 float64 }

// Segment is a straight line between two points.
type Segment struct{ A, B Point }

// around is the square a symbol of reach r occupies.
func around(x, y, r float64) Box { return Box{X0: x - r, Y0: y - r, X1: x + r, Y1: y + r} }

// Surface is the room a box covers (width times height), zero for an
// empty box.
func (b Box) Surface() float64 { return max(b.X1-b.X0, 0) * max(b.Y1-b.Y0, 0) }

// Intersect is the part two boxes share (empty when they do not meet).
func (b Box) Intersect(o Box) Box {
	return Box{X0: max(b.X0, o.X0), Y0: max(b.Y0, o.Y0), X1: min(b.X1, o.X1), Y1: min(b.Y1, o.Y1)}
}

// Crosses reports whether the segment passes through the box's inside
// (Liang–Barsky clipping).
func (b Box) Crosses(s Segment) bool {
	dx, dy := s.B.X-s.A.X, s.B.Y-s.A.Y
	t0, t1 := 0.0, 1.0
	for _, edge := range [4][2]float64{
		{-dx, s.A.X - b.X0}, {dx, b.X1 - s.A.X},
		{-dy, s.A.Y - b.Y0}, {dy, b.Y1 - s.A.Y},
	} {
		p, q := edge[0], edge[1]
		if p == 0 {
			if q <= 0 {
				return false // parallel to this edge and outside (or on) it
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
	}
	return t0 < t1
}
