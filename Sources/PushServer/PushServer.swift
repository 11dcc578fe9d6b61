// PushServer — see DESIGN §7.
