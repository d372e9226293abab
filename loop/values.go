package loop

// Value returns what a layer above keeps on l under key, nil if nothing:
// state that belongs to one loop and is used on its goroutine alone, so
// it needs no lock (the task layer keeps its idle coroutines here). As
// with context.Value, the key is a value of an unexported type of the
// package that owns it, so that no two packages collide.
func (l *Loop) Value(key any) any { return l.values[key] }

// SetValue keeps v on l under key, for Value. Like every method but
// CallSoonThreadsafe, it is called on the loop's goroutine.
func (l *Loop) SetValue(key, v any) {
	if l.values == nil {
		l.values = make(map[any]any)
	}
	l.values[key] = v
}
