package booking

import (
	"context"
	"sync/atomic"

	"parking/internal/occupancy"
)

// CountOccupancyReads counts, from now on, the reads of the window behind the quote's
// copy of the occupancy (availability_cache.go). Call it before s serves quotes.
func CountOccupancyReads(s *Service) *atomic.Int64 {
	var n atomic.Int64
	read := s.quoteDays.read
	s.quoteDays.read = func(ctx context.Context, sp occupancy.Span) ([]int, error) {
		n.Add(1)
		return read(ctx, sp)
	}
	return &n
}
