// PushTerminal — see DESIGN §7.
