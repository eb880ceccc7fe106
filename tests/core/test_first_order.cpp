// placeholder: filled in by issue 6 work
