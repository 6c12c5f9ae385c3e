"""The tour's pages: tours, events, brackets, the Finals, qualification and prizes."""
