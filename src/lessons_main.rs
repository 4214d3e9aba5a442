fn main() {
    epochlab::lessons::app::start();
}
