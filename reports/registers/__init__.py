"""The registers of the arrêté du 14 mai 2007 (docs/registers.md): the gaming day, amounts in
words, and the registers read back from the journal and the books."""
