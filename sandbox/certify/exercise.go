package certify

// exercise emits every trigger event once, one at a time, and lets the
// add-on finish each: the calls they make (an asynchronous snapshot
// among them) are judged with the whole run's.
func (s *suite) exercise() {
	for _, t := range s.o.Triggers {
		if err := s.emit(t.Event, s.instance(t)); err != nil {
			s.progress("emitting %s failed: %v", t.Event, err)
			continue
		}
		s.settle()
	}
}
