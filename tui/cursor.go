package tui

// cursor is a list's selection and scroll position. Rows are identified
// by their feed seq, not their index, so the selection stays on the same
// call while new ones arrive and old ones leave the bounded history.
type cursor struct {
	sel    int64 // seq of the selected row
	follow bool  // stick to the newest row (the last one)
	top    int64 // seq of the first row on screen
}

// place returns the index of the selected row in seqs, moving the
// selection to the nearest newer row when its row is gone (-1: empty).
func (c *cursor) place(seqs []int64) int {
	n := len(seqs)
	if n == 0 {
		return -1
	}
	if c.follow || c.sel == 0 {
		c.sel = seqs[n-1]
		return n - 1
	}
	for i, s := range seqs {
		if s == c.sel {
			return i
		}
	}
	for i, s := range seqs {
		if s > c.sel {
			c.sel = s
			return i
		}
	}
	c.sel = seqs[n-1]
	return n - 1
}

// move shifts the selection by delta rows; reaching the last row turns
// following on, leaving it turns following off.
func (c *cursor) move(seqs []int64, delta int) {
	i := c.place(seqs)
	if i < 0 {
		return
	}
	j := max(0, min(len(seqs)-1, i+delta))
	c.sel = seqs[j]
	c.follow = j == len(seqs)-1
}

// oldest selects the first row.
func (c *cursor) oldest(seqs []int64) {
	if len(seqs) > 0 {
		c.sel, c.follow = seqs[0], len(seqs) == 1
	}
}

// newest selects the last row and follows the feed.
func (c *cursor) newest() { c.follow = true }

// window returns the index of the first row to show in h lines so the
// selected row (idx) is visible and the view does not jump as rows come
// and go.
func (c *cursor) window(seqs []int64, idx, h int) int {
	n := len(seqs)
	if n == 0 || h <= 0 {
		return 0
	}
	start := -1
	if c.top != 0 {
		for i, s := range seqs {
			if s == c.top {
				start = i
				break
			}
		}
		if start < 0 {
			for i, s := range seqs {
				if s > c.top {
					start = i
					break
				}
			}
		}
	}
	if start < 0 || c.follow {
		start = n - h
	}
	if idx < start {
		start = idx
	}
	if idx >= start+h {
		start = idx - h + 1
	}
	start = max(0, min(start, n-h))
	c.top = seqs[start]
	return start
}
