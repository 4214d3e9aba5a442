pub mod stateright_model;
