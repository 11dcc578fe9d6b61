// PushStore — see DESIGN §7.
