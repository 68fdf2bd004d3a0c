package store

// SetHistoryPlan forces History's plan choices in tests: scan 0 always gathers
// the page's matches, a huge one always walks the date index; ids bounds the
// matching ids carried from the count to the page (0: never, the subquery runs
// again). It returns the restorer.
func SetHistoryPlan(scan, ids int) (restore func()) {
	oldScan, oldIDs := scanBudget, maxPassedIDs
	scanBudget, maxPassedIDs = scan, ids
	return func() { scanBudget, maxPassedIDs = oldScan, oldIDs }
}

// SetHistorySortBudget sets how many reservations of an entry-date range History
// may read and sort (0: never, the date index is walked), and returns the restorer.
func SetHistorySortBudget(n int) (restore func()) {
	old := sortBudget
	sortBudget = n
	return func() { sortBudget = old }
}
