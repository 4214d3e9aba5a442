fn main() {
    epochlab::start();
}
