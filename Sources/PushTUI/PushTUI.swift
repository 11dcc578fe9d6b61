// PushTUI — see DESIGN §7.
